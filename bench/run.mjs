#!/usr/bin/env node
// Parser benchmark (`npm run bench`): parse time of the whole test corpus, of a generated ~1 MB config, an
// incremental re-parse after a one-character edit, and analyze() over the corpus. Prints a table; never fails on
// numbers. The TypeScript sources are bundled with esbuild into a temp dir (beside copies of the two wasm files,
// which the loader looks for next to itself), so this plain .mjs runs exactly the code the CLI ships.
//   node bench/run.mjs [--runs N]
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = path.join(root, 'test', 'corpus');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);
const TARGET_BYTES = 1_000_000;

async function loadModules() {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-bench-'));
  const hasAnalyze = existsSync(path.join(root, 'server/src/core/analyze.ts'));
  const entry = [
    "export { loadNginxParser } from './server/src/parser/loader.ts';",
    "export { Edit } from 'web-tree-sitter';",
    hasAnalyze ? "export { analyze } from './server/src/core/analyze.ts';" : 'export const analyze = undefined;',
  ].join('\n');
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: path.join(dir, 'bench-bundle.mjs'),
    banner: { js: "import { createRequire as __nkCreateRequire } from 'node:module'; const require = __nkCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  const require = createRequire(import.meta.url);
  const runtimeWasm = path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm');
  copyFileSync(runtimeWasm, path.join(dir, 'web-tree-sitter.wasm'));
  copyFileSync(path.join(root, 'grammars/nginx/tree-sitter-nginx.wasm'), path.join(dir, 'tree-sitter-nginx.wasm'));
  const modules = await import(pathToFileURL(path.join(dir, 'bench-bundle.mjs')).href);
  return { modules, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every corpus file (all of them, templates and non-nginx sigils too: the parser must cope with anything). */
function corpusFiles() {
  const files = [];
  for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated']) {
    for (const name of readdirSync(path.join(corpusDir, dir)).sort()) {
      const file = path.join(corpusDir, dir, name);
      files.push({ path: file, text: readFileSync(file, 'utf8') });
    }
  }
  return files;
}

/** Reads MANIFEST.tsv columns needed here (no quoted fields among them, so a plain split will do). */
function validSnippets() {
  const [header, ...rows] = readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const cols = header.split('\t');
  const at = (row, name) => row.split('\t')[cols.indexOf(name)];
  return rows
    .filter((row) => at(row, 'nginx_t') === 'ok' && ['http', 'server', 'location'].includes(at(row, 'nginx_t_context')))
    .map((row) => {
      const text = readFileSync(path.join(corpusDir, at(row, 'file')), 'utf8');
      const context = at(row, 'nginx_t_context');
      if (context === 'http') return text;
      if (context === 'server') return `server {\n${text}\n}\n`;
      return `server {\nlocation / {\n${text}\n}\n}\n`;
    });
}

/** ~1 MB of valid nginx: corpus files (http, server, location level) replicated inside one http block. */
function generatedConfig() {
  const snippets = validSnippets();
  let body = '';
  for (let i = 0; Buffer.byteLength(body) < TARGET_BYTES; i++) body += `# copy ${i}\n${snippets[i % snippets.length]}\n`;
  return `events {}\nhttp {\n${body}}\n`;
}

function measure(runs, fn) {
  fn(); // warm-up: JIT and the wasm instance
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

async function measureAsync(runs, fn) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

function printTable(rows) {
  const head = ['case', 'size', 'runs', 'median ms', 'min ms', 'MB/s'];
  const cells = rows.map((r) => [
    r.name,
    `${(r.bytes / 1e6).toFixed(2)} MB`,
    String(r.runs),
    r.median.toFixed(2),
    r.min.toFixed(2),
    r.mbps === false ? '-' : (r.bytes / 1e6 / (r.median / 1000)).toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

const { modules, cleanup } = await loadModules();
try {
  const parser = await modules.loadNginxParser();
  const files = corpusFiles();
  const corpusBytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  const big = generatedConfig();
  const bigBytes = Buffer.byteLength(big);
  const rows = [];

  const parseAll = () => {
    for (const f of files) parser.parse(f.text).delete();
  };
  rows.push({ name: `parse corpus (${files.length} files)`, bytes: corpusBytes, runs: RUNS, ...measure(RUNS, parseAll) });
  rows.push({ name: 'parse generated config', bytes: bigBytes, runs: RUNS, ...measure(RUNS, () => parser.parse(big).delete()) });

  // Incremental: insert one character in the middle of the big file and re-parse with the edited old tree.
  const at = big.indexOf('\n', Math.floor(big.length / 2));
  const edited = `${big.slice(0, at)}#${big.slice(at)}`;
  const base = parser.parse(big);
  const row = big.slice(0, at).split('\n').length - 1;
  const column = at - big.lastIndexOf('\n', at - 1) - 1;
  const point = { row, column };
  const reparse = () => {
    const old = base.copy();
    old.edit(new modules.Edit({
      startIndex: at, oldEndIndex: at, newEndIndex: at + 1,
      startPosition: point, oldEndPosition: point, newEndPosition: { row, column: column + 1 },
    }));
    parser.parse(edited, old).delete();
    old.delete();
  };
  rows.push({ name: 'incremental re-parse (1 char)', bytes: bigBytes, runs: RUNS, mbps: false, ...measure(RUNS, reparse) });
  base.delete();

  if (modules.analyze) {
    const analyzeAll = async () => {
      for (const f of files) await modules.analyze([f]);
    };
    rows.push({ name: 'analyze corpus (each file alone)', bytes: corpusBytes, runs: Math.max(3, Math.floor(RUNS / 2)), ...(await measureAsync(Math.max(3, Math.floor(RUNS / 2)), analyzeAll)) });
  }

  console.log(`nginx-keepalive parser benchmark: node ${process.version}, ${RUNS} runs after a warm-up, median and min`);
  printTable(rows);
} finally {
  cleanup();
}
