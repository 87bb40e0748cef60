// bench/RESULTS.md: when and where it was measured, every table, and the goals against what was achieved.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fastestPeer, markdownOf, superLinear } from './results.mjs';

function machineSection(machine, peers) {
  const versions = peers.ready.map((p) => `${p.name} ${p.version}`).join(', ') || 'none';
  const missing = peers.missing.map((p) => `${p.name} (${p.reason})`).join('; ');
  return [
    `- Date: ${machine.date}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM; ${machine.os} (kernel ${machine.kernel})`,
    `- Load average when the run started: ${machine.load} (other work on the machine makes wall times noisy; CPU times less so)`,
    `- node ${machine.node}, nginx ${machine.nginx}, ${machine.wrk}`,
    `- Peers: ${versions}${missing ? `; not installed: ${missing}` : ''}`,
  ].join('\n');
}

function goals(results) {
  const lines = [];
  const { throughput, scaling, seed } = results;
  if (throughput) {
    const ours = throughput.rows.filter((row) => row.ours);
    const best = ours.reduce((a, b) => (b.wall < a.wall ? b : a), ours[0]);
    for (const [what, peer] of [['peer', fastestPeer(throughput)], ['linter', fastestPeer(throughput, 'linter')]]) {
      if (!peer || !best) continue;
      const achieved = peer.wall / best.wall;
      lines.push(
        `- Corpus throughput, goal ≥ 10× the fastest ${what} (${peer.name}, ${peer.wall.toFixed(2)} s wall, ` +
          `${peer.cpu.toFixed(2)} s CPU): ${achieved.toFixed(1)}× with ${best.name.replace('nginx-keepalive ', '')} ` +
          `(${best.wall.toFixed(2)} s wall, ${best.cpu.toFixed(2)} s CPU) — ${achieved >= 10 ? 'met' : 'not met'}.`,
      );
    }
  }
  if (scaling) {
    const bad = scaling.filter(superLinear);
    lines.push(
      `- Linear scaling, goal exponent ≈ 1: ${scaling.map((s) => `${s.name} ${s.exponent.toFixed(2)}`).join('; ')} — ` +
        `${bad.length === 0 ? 'met' : `not met (${bad.map((s) => s.name).join('; ')})`}.`,
    );
  }
  if (seed && !seed.skipped) {
    for (const mode of new Set(seed.rows.map((r) => r.mode))) {
      const before = seed.rows.find((r) => r.mode === mode && r.variant === 'Dokku template as shipped');
      const after = seed.rows.find((r) => r.mode === mode && r.variant === 'after check --fix');
      if (before && after) {
        lines.push(
          `- Seed experiment, ${mode}: ${before.rps.toFixed(0)} → ${after.rps.toFixed(0)} requests/s ` +
            `(${(after.rps / before.rps).toFixed(2)}×), upstream connections ${before.upstreamConnections} → ${after.upstreamConnections}.`,
        );
      }
    }
  }
  return lines.join('\n');
}

/** Hand-written measurements below this line (one-off comparisons between builds) survive a new run. */
export const KEPT_MARKER = '<!-- kept across runs: measurements written by hand below -->';

function keptSection(file) {
  if (!existsSync(file)) return '';
  const previous = readFileSync(file, 'utf8');
  const at = previous.indexOf(KEPT_MARKER);
  return at === -1 ? '' : `\n${previous.slice(at)}`;
}

export function writeResults(file, { machine, peers, results, tables, quick, elapsed }) {
  const kept = keptSection(file);
  const text = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${quick ? ' -- --quick' : ''}\` (bench/run.mjs) in ${elapsed.toFixed(0)} s. Benchmarks are never part of the tests.`,
    '',
    '## Machine',
    '',
    machineSection(machine, peers),
    '',
    '## Goals and what was achieved',
    '',
    goals(results),
    '',
    '## Tables',
    '',
    markdownOf(tables),
    '',
  ].join('\n');
  writeFileSync(file, text + kept);
}
