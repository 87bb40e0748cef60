// Timing helpers shared by the benchmark sections: commands timed by bash's `time` (wall and the CPU of the command
// and its children, which matters on a shared machine where wall time is noisy), medians, a log-log fit, tables.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Runs `argv` once under bash's `time`; stdout and stderr go to files (`out`, or discarded). Returns seconds of
 * wall-clock and CPU (user + sys, children included) and the exit status.
 */
export function timeCommand(argv, { cwd, env, out } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-bench-time-'));
  try {
    const times = path.join(dir, 'times');
    const script = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >"$NK_OUT" 2>"$NK_ERR" </dev/null; } 2>"$NK_TIMES"';
    const result = spawnSync('bash', ['-c', script, 'bench', ...argv], {
      cwd,
      env: { ...process.env, ...env, NK_OUT: out ?? '/dev/null', NK_ERR: path.join(dir, 'err'), NK_TIMES: times },
      encoding: 'utf8',
    });
    if (result.error) throw result.error;
    const [wall, user, sys] = readFileSync(times, 'utf8').trim().split(/\s+/).map(Number);
    return { wall, cpu: user + sys, status: result.status, stderr: readFileSync(path.join(dir, 'err'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Times a command `runs` times; medians of wall and CPU seconds, plus the last run's status and stderr. */
export function timeRuns(argv, runs, options = {}) {
  const samples = Array.from({ length: runs }, () => timeCommand(argv, options));
  const last = samples.at(-1);
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)), runs, status: last.status, stderr: last.stderr };
}

/** Least squares of log(y) on log(x): y ≈ c·x^exponent. Points with y <= 0 are left out. */
export function fitPowerLaw(points) {
  const usable = points.filter((p) => p.x > 0 && p.y > 0).map((p) => ({ x: Math.log(p.x), y: Math.log(p.y) }));
  const n = usable.length;
  if (n < 2) return { exponent: NaN, points: n };
  const mx = usable.reduce((s, p) => s + p.x, 0) / n;
  const my = usable.reduce((s, p) => s + p.y, 0) / n;
  const sxy = usable.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = usable.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return { exponent: sxy / sxx, points: n };
}

/** Rows of cells (strings) as an aligned text table; the first column left-aligned, the rest right-aligned. */
export function textTable(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same rows as a Markdown table. */
export function markdownTable(head, rows) {
  const align = head.map((_, i) => (i === 0 ? ':--' : '--:'));
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const seconds = (s) => (s >= 10 ? s.toFixed(1) : s >= 1 ? s.toFixed(2) : s.toFixed(3));
export const ms = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
