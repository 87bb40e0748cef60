// In-process micro-benchmarks of the parser and analyze(): the whole corpus, a generated ~1 MB config, and an
// incremental re-parse after a one-character edit (what the language server does on each keystroke).
import { readFileSync } from 'node:fs';
import { allCorpusFiles } from './corpus.mjs';
import { corpusConfig } from './generate.mjs';

function measure(runs, fn) {
  fn(); // warm-up: JIT and the wasm instance
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return summarise(times);
}

async function measureAsync(runs, fn) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return summarise(times);
}

function summarise(times) {
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

/** An edit inserting `#` at the first line break after the middle of `text`, as web-tree-sitter's Edit wants it. */
function middleEdit(text, Edit) {
  const at = text.indexOf('\n', Math.floor(text.length / 2));
  const row = text.slice(0, at).split('\n').length - 1;
  const column = at - text.lastIndexOf('\n', at - 1) - 1;
  const point = { row, column };
  const edit = new Edit({
    startIndex: at, oldEndIndex: at, newEndIndex: at + 1,
    startPosition: point, oldEndPosition: point, newEndPosition: { row, column: column + 1 },
  });
  return { edited: `${text.slice(0, at)}#${text.slice(at)}`, edit };
}

export async function parserBench({ modules, runs }) {
  const parser = await modules.loadNginxParser();
  const files = allCorpusFiles().map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const corpusBytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  const big = corpusConfig(1_000_000);
  const bigBytes = Buffer.byteLength(big);
  const rows = [];

  const parseAll = () => files.forEach((f) => parser.parse(f.text).delete());
  rows.push({ name: `parse corpus (${files.length} files)`, bytes: corpusBytes, runs, ...measure(runs, parseAll) });
  rows.push({ name: 'parse generated config', bytes: bigBytes, runs, ...measure(runs, () => parser.parse(big).delete()) });

  const base = parser.parse(big);
  const { edited, edit } = middleEdit(big, modules.Edit);
  const reparse = () => {
    const old = base.copy();
    old.edit(edit);
    parser.parse(edited, old).delete();
    old.delete();
  };
  rows.push({ name: 'incremental re-parse (1 char)', bytes: bigBytes, runs, perByte: false, ...measure(runs, reparse) });
  base.delete();

  const analyzeRuns = Math.max(3, Math.floor(runs / 2));
  const analyzeAll = async () => {
    for (const f of files) await modules.analyze([f]);
  };
  rows.push({ name: 'analyze corpus (each file alone)', bytes: corpusBytes, runs: analyzeRuns, ...(await measureAsync(analyzeRuns, analyzeAll)) });
  return rows;
}
