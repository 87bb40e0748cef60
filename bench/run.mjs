#!/usr/bin/env node
// The benchmark (`npm run bench`, which builds dist/ first): our CLI against its peers on the replicated corpus and
// per file, scaling with input size and file count, the parser in process, editor latency (bench/lsp-latency.mjs,
// when present) and the seed experiment with real nginx. Prints tables and writes bench/RESULTS.md. Never fails on
// numbers; benchmarks are not tests.
//   node bench/run.mjs [--quick] [--runs N] [--only throughput,cold,scaling,parser,lsp,seed] [--out FILE]
// --quick: fewer runs and smaller inputs, written nowhere unless --out is given.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadServerModules, loadTestSupport } from './bundle.mjs';
import { root } from './corpus.mjs';
import { describeMachine } from './machine.mjs';
import { modelHeapBench } from './model-heap.mjs';
import { parserBench } from './parser.mjs';
import { installPeers } from './peers.mjs';
import { writeResults } from './report.mjs';
import { printTables, tablesOf } from './results.mjs';
import { fileScaling, measureStartup, sizeScaling } from './scaling.mjs';
import { seedAvailable, seedExperiment } from './seed.mjs';
import { coldPerFile, corpusThroughput } from './throughput.mjs';

const SECTIONS = ['throughput', 'cold', 'scaling', 'parser', 'lsp', 'seed'];
const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, runs: { type: 'string' }, only: { type: 'string' }, out: { type: 'string' } },
});
const quick = values.quick === true;
const runs = values.runs ? Number(values.runs) : quick ? 1 : 3;
const only = new Set(values.only ? values.only.split(',') : SECTIONS);
const out = values.out ?? (quick || values.only ? undefined : path.join(root, 'bench', 'RESULTS.md'));
const wants = (section) => only.has(section);

if (!existsSync(path.join(root, 'dist', 'cli.js'))) {
  console.error('bench: dist/cli.js is missing; run `npm run build` (npm run bench does)');
  process.exit(2);
}

async function editorLatency() {
  const file = path.join(root, 'bench', 'lsp-latency.mjs');
  if (!existsSync(file)) return { skipped: 'bench/lsp-latency.mjs does not exist yet: not measured' };
  try {
    const { measureLspLatency } = await import(file);
    return await measureLspLatency({ edits: quick ? 20 : 60 });
  } catch (error) {
    return { skipped: `bench/lsp-latency.mjs failed: ${error.message.split('\n')[0]}` };
  }
}

async function seed(workDir) {
  const missing = seedAvailable();
  if (missing) return { skipped: missing };
  const { modules, cleanup } = await loadTestSupport();
  try {
    return await seedExperiment({ workDir, support: modules, seconds: quick ? 2 : 5 });
  } finally {
    cleanup();
  }
}

const started = performance.now();
const machine = describeMachine();
const workDir = mkdtempSync(path.join(tmpdir(), 'nk-bench-'));
const results = {};
let peers = { ready: [], missing: [] };
try {
  if (wants('throughput') || wants('cold')) peers = installPeers();
  for (const missing of peers.missing) console.error(`bench: ${missing.name} left out: ${missing.reason}`);
  if (wants('throughput') || wants('cold')) {
    console.error('bench: corpus throughput');
    results.throughput = corpusThroughput({ workDir, peers: peers.ready, runs, copies: quick ? 2 : 10 });
  }
  if (wants('cold')) {
    console.error('bench: cold per-file runs');
    results.cold = coldPerFile({ files: results.throughput.allFiles, peers: peers.ready, count: quick ? 10 : 50, rounds: quick ? 1 : runs });
    if (!wants('throughput')) delete results.throughput;
  }
  if (wants('scaling')) {
    console.error('bench: scaling');
    const startup = measureStartup(workDir, runs);
    results.scaling = [...sizeScaling({ workDir, runs, quick, startup }), ...fileScaling({ workDir, runs, quick, startup })];
  }
  if (wants('parser')) {
    console.error('bench: parser');
    const { modules, cleanup } = await loadServerModules();
    try {
      results.parser = await parserBench({ modules, runs: quick ? 3 : 7 });
      results.modelHeap = await modelHeapBench({ modules });
    } finally {
      cleanup();
    }
  }
  if (wants('lsp')) results.lsp = await editorLatency();
  if (wants('seed')) {
    console.error('bench: seed experiment');
    results.seed = await seed(workDir);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const tables = tablesOf(results);
console.log(`nginx-keepalive benchmark${quick ? ' (quick)' : ''}: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}`);
printTables(tables);
if (out) {
  writeResults(out, { machine, peers, results, tables, quick, elapsed: (performance.now() - started) / 1000 });
  console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
}
