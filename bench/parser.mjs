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

/**
 * Two variants measured in alternation (a, b, a, b, ...), so drift in the machine's load hits both alike: what the
 * ratio between them needs on a noisy machine.
 */
async function measurePairAsync(runs, a, b) {
  await a();
  await b();
  const times = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[index].push(performance.now() - start);
    }
  }
  return times.map(summarise);
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

  const analyzeAll = async () => {
    for (const f of files) await modules.analyze([f]);
  };
  // What building every finding's fix costs on top: what analyze() did before fixes were built on demand, and what
  // `check --fix` and SARIF output still pay (the editor's diagnostics and `check` without --fix do not). Measured
  // in alternation with the plain analyze(), more runs: the difference is the point.
  const analyzeAllWithFixes = async () => {
    for (const f of files) modules.materializeFixes(await modules.analyze([f]));
  };
  const pairRuns = Math.max(7, runs);
  const [plain, withFixes] = await measurePairAsync(pairRuns, analyzeAll, analyzeAllWithFixes);
  rows.push({ name: 'analyze corpus (each file alone)', bytes: corpusBytes, runs: pairRuns, ...plain });
  rows.push({ name: 'analyze corpus, every fix built', bytes: corpusBytes, runs: pairRuns, ...withFixes });
  const bigDoc = [{ path: '/bench/generated.conf', text: big }];
  const bigWithFixes = async () => modules.materializeFixes(await modules.analyze(bigDoc));
  const [bigPlain, bigFixes] = await measurePairAsync(pairRuns, () => modules.analyze(bigDoc), bigWithFixes);
  rows.push({ name: 'analyze generated config', bytes: bigBytes, runs: pairRuns, ...bigPlain });
  rows.push({ name: 'analyze generated config, every fix built', bytes: bigBytes, runs: pairRuns, ...bigFixes });
  return rows;
}
