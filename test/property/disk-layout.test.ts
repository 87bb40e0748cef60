// `check` (report, --fix-dry-run and --fix) on random hostile layouts on the real disk (./layouts.ts). Whatever the
// layout, the run returns without blocking, exits 0, 1 or 2 with no internal error, prints nothing of the files outside
// the checked tree and leaves them as they were, reports each real file once, patches each real file at most once,
// and leaves no temporary file behind.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../server/src/cli/args.js';
import { runCheck } from '../../server/src/cli/check.js';
import { FifoWatchdog } from './fifo-watchdog.js';
import { buildLayout, layout, removeLayout, SECRET, type BuiltLayout } from './layouts.js';
import { checkProperty } from './support.js';

const watchdog = new FifoWatchdog(60);
afterAll(() => watchdog.stop());

type Mode = 'json' | 'stylish' | 'dry-run' | 'fix';
const MODE_ARGS: Record<Mode, string[]> = {
  json: ['--format', 'json'],
  stylish: [],
  'dry-run': ['--fix-dry-run'],
  fix: ['--fix', '--format', 'json'],
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function check(cwd: string, mode: Mode, target: string): Promise<Run> {
  const command = parseCommandLine(['check', '--jobs', '1', '--no-color', ...MODE_ARGS[mode], target], { cwd, env: {}, stdoutIsTTY: false });
  if (command.kind !== 'check') throw new Error('not a check command');
  let stdout = '';
  let stderr = '';
  const code = await runCheck(command.options, { cwd, stdout: (text) => (stdout += text), stderrLine: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}

/** Every regular file below `directory` with its bytes, not following links (the outside tree has none). */
function snapshot(directory: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(path.join(entry.parentPath, entry.name), readFileSync(path.join(entry.parentPath, entry.name), 'latin1'));
  }
  return files;
}

/** Names in the tree that look like --fix's temporary files. */
function leftoverTemporaries(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isSymbolicLink() && entry.name.includes('.nginx-keepalive-') && entry.name.endsWith('.tmp'))
    .map((entry) => entry.name);
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** How many times each real file is named by a report (json) or a patch (`+++ b/…` headers of the dry run). */
function reportedTwice(built: BuiltLayout, mode: Mode, stdout: string): string[] {
  let named: string[] = [];
  // A refused run (a settings file mapping outside) prints no report at all.
  if ((mode === 'json' || mode === 'fix') && stdout !== '') {
    named = (JSON.parse(stdout) as Array<{ filePath: string }>).map((file) => path.resolve(built.root, file.filePath));
  } else if (mode === 'dry-run') {
    named = stdout
      .split('\n')
      .filter((line) => line.startsWith('+++ '))
      .map((line) => path.resolve(built.root, line.slice(4).replace(/^b\//, '').split('\t')[0]!));
  }
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const file of named) {
    const real = realOrSelf(file);
    if (seen.has(real)) twice.push(path.relative(built.root, file));
    seen.add(real);
  }
  return twice;
}

const mode = fc.constantFrom<Mode>('json', 'stylish', 'dry-run', 'fix');
const target = fc.constantFrom('.', 'nginx.conf');

describe('check on hostile layouts', () => {
  it('returns, stays inside the tree, reports and patches each real file once, leaves no temporary file', async () => {
    let runs = 0;
    await checkProperty(
      'check confines itself to hostile layouts',
      fc.asyncProperty(layout, mode, target, async (spec, runMode, checked) => {
        const built = buildLayout(spec);
        try {
          const outsideBefore = snapshot(built.outside);
          const statOutside = statSync(built.outside).mtimeMs;
          const run = await watchdog.guard(`run ${++runs} (${JSON.stringify(spec)})`, built.fifos, () => check(built.root, runMode, checked));
          expect([0, 1, 2]).toContain(run.code);
          expect(run.stderr).not.toMatch(/internal error/i);
          expect(run.stdout + run.stderr).not.toContain(SECRET);
          expect(snapshot(built.outside)).toEqual(outsideBefore);
          expect(statSync(built.outside).mtimeMs).toBe(statOutside);
          expect(reportedTwice(built, runMode, run.stdout)).toEqual([]);
          expect(run.stderr).not.toMatch(/changed on disk/);
          expect(leftoverTemporaries(built.root)).toEqual([]);
        } finally {
          removeLayout(built);
        }
      }),
      25,
    );
  });
});
