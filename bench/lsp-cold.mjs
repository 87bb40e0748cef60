#!/usr/bin/env node
// The language server's cold start alone, A/B: spawns each given dist/server.js --stdio in turn (A B A B ...), as
// bench/lsp-latency.mjs's `cold` session does (initialize, initialized, didOpen examples/plain/nginx.conf in a
// workspace folder that also holds a 5,000-line config and a 1 MB one), and prints the median spawn -> first
// publishDiagnostics of each build, with the child's CPU time (user + sys, from /proc after the first diagnostics)
// and `node -e 0`'s median in the same rounds, and how many spawns rewrote their code cache (V8 rejected it: the
// bundle was compiled from source). The caches are kept in a fresh XDG_CACHE_HOME of the run's own. Never fails on
// numbers.
//   node bench/lsp-cold.mjs [--rounds N] [server.js ...]   (default: dist/server.js)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateConfig, Session } from './lsp-latency.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({ options: { rounds: { type: 'string', default: '11' } }, allowPositionals: true });
const servers = positionals.length > 0 ? positionals.map((file) => path.resolve(file)) : [path.join(root, 'dist', 'server.js')];
const rounds = Number(values.rounds);

/** user + sys of `pid` in ms, from /proc (Linux only; undefined elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function nodeAlone() {
  const started = performance.now();
  await new Promise((resolve) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', resolve));
  return performance.now() - started;
}

/** The code cache files and their mtimes: a file written again means its cache was rejected. */
function cacheStamps() {
  const dir = path.join(process.env.XDG_CACHE_HOME, 'nginx-keepalive', 'code-cache');
  try {
    return new Map(readdirSync(dir).map((name) => [name, statSync(path.join(dir, name)).mtimeMs]));
  } catch {
    return new Map();
  }
}

async function coldOnce(workspace, server, plainFile, plain) {
  const stamps = cacheStamps();
  const session = new Session(workspace, server);
  await session.initialize();
  await session.open(plainFile, plain);
  const wall = performance.now() - session.started;
  const cpu = cpuMs(session.child.pid);
  await session.stop();
  const rewritten = [...cacheStamps()].some(([name, mtime]) => stamps.get(name) !== mtime);
  return { wall, cpu, rewritten };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const workspace = mkdtempSync(path.join(tmpdir(), 'nk-lsp-cold-'));
process.env.XDG_CACHE_HOME = mkdtempSync(path.join(tmpdir(), 'nk-lsp-cold-cache-'));
try {
  const plain = readFileSync(path.join(root, 'examples/plain/nginx.conf'), 'utf8');
  const plainFile = path.join(workspace, 'plain.conf');
  writeFileSync(plainFile, plain);
  writeFileSync(path.join(workspace, 'five-thousand.conf'), generateConfig({ lines: 5000 }));
  writeFileSync(path.join(workspace, 'one-megabyte.conf'), generateConfig({ bytes: 1_000_000 }));
  // One warm-up spawn per build: it writes the code cache the measured spawns then read.
  for (const server of servers) await coldOnce(workspace, server, plainFile, plain);
  const results = servers.map(() => ({ wall: [], cpu: [], rewritten: 0 }));
  const floor = [];
  for (let round = 0; round < rounds; round++) {
    floor.push(await nodeAlone());
    for (const [index, server] of servers.entries()) {
      const { wall, cpu, rewritten } = await coldOnce(workspace, server, plainFile, plain);
      results[index].wall.push(wall);
      if (rewritten) results[index].rewritten++;
      if (cpu !== undefined) results[index].cpu.push(cpu);
    }
  }
  const floorMs = median(floor);
  console.log(`node -e 0: ${floorMs.toFixed(1)} ms (median of ${rounds})`);
  for (const [index, server] of servers.entries()) {
    const wall = median(results[index].wall);
    const cpu = results[index].cpu.length > 0 ? `${median(results[index].cpu).toFixed(0)} ms CPU` : '';
    const spread = `${Math.min(...results[index].wall).toFixed(0)}-${Math.max(...results[index].wall).toFixed(0)}`;
    const ratio = `${(wall / floorMs).toFixed(2)}x node -e 0`;
    console.log(`${String.fromCharCode(65 + index)} ${server}: ${wall.toFixed(1)} ms (${spread}) ${cpu}, ${ratio}, cache rewritten ${results[index].rewritten}/${rounds}`);
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(process.env.XDG_CACHE_HOME, { recursive: true, force: true });
}
