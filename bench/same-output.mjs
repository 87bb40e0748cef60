#!/usr/bin/env node
// Holds a speed change to the CLI's output: runs a baseline build's dist/cli.js and this checkout's over test/corpus
// (both nginx versions, every format, --jobs 1 and 2, --fix-dry-run and --statistics) and fails on the first byte
// that differs. The baseline is another build of the CLI, e.g. main's, built once into a temporary directory:
//   git archive main | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && node esbuild.mjs)
//   node bench/same-output.mjs /tmp/base/dist/cli.js [more directories, e.g. bench's corpus ×10]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baseline = process.argv[2];
if (!baseline) {
  console.error('usage: node bench/same-output.mjs <baseline dist/cli.js>');
  process.exit(2);
}
const ours = path.join(root, 'dist', 'cli.js');
const FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab', 'rdjson'];
const VERSIONS = ['1.22.1', '1.29.7'];
const cases = [];
for (const version of VERSIONS) {
  for (const format of FORMATS) {
    cases.push(['check', 'test/corpus', '--format', format, '--nginx-version', version]);
    // test/corpus is over MIN_PARALLEL_CHARS (1 MB), so --jobs 2 really starts a worker.
    if (format === 'json' || format === 'sarif') cases.push(['check', 'test/corpus', '--format', format, '--nginx-version', version, '--jobs', '2']);
  }
  cases.push(['check', 'test/corpus', '--nginx-version', version, '--statistics', '--verbose']);
  cases.push(['check', 'test/corpus', '--nginx-version', version, '--fix-dry-run']);
  cases.push(['check', 'test/corpus', '--nginx-version', version, '--fix-dry-run', '--unsafe-fixes']);
}
cases.push(['check', 'test/corpus']);
for (const dir of process.argv.slice(3)) {
  cases.push(['check', dir, '--format', 'json'], ['check', dir, '--format', 'json', '--jobs', '2'], ['check', dir, '--format', 'sarif']);
}

const run = (cli, args) => spawnSync(process.execPath, [cli, ...args], { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' });
let differ = 0;
for (const args of cases) {
  const a = run(baseline, args);
  const b = run(ours, args);
  const same = a.status === b.status && a.stdout === b.stdout && a.stderr === b.stderr;
  console.log(`${same ? 'same' : 'DIFFERENT'}  exit ${b.status}  ${b.stdout.length} bytes  ${args.join(' ')}`);
  if (!same) {
    differ++;
    const x = a.stdout.split('\n');
    const y = b.stdout.split('\n');
    const at = x.findIndex((line, i) => line !== y[i]);
    if (at !== -1) console.log(`  first difference at line ${at + 1}:\n  - ${x[at]}\n  + ${y[at]}`);
    if (a.status !== b.status) console.log(`  exit ${a.status} -> ${b.status}`);
    if (a.stderr !== b.stderr) console.log(`  stderr differs:\n  - ${a.stderr.slice(0, 300)}\n  + ${b.stderr.slice(0, 300)}`);
  }
}
console.log(differ === 0 ? `all ${cases.length} runs byte-identical` : `${differ} of ${cases.length} runs differ`);
process.exit(differ === 0 ? 0 : 1);
