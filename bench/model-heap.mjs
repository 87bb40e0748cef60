// Heap the model takes per character of input (issue 16's goal: under 8 bytes): every corpus file's model, and the
// generated ~1 MB config's, built as the CLI builds them (the text reader, else a tree walk) and kept alive while
// V8's heap is measured after full collections. The texts are read before the first measurement, so they are not
// counted; the trees are deleted, as the CLI and the language server delete them.
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { allCorpusFiles } from './corpus.mjs';
import { corpusConfig } from './generate.mjs';

export const MODEL_HEAP_GOAL_BYTES_PER_CHAR = 8;

function collector() {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

function heapAfterCollection(gc) {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function modelHeapOf(name, texts, build, gc) {
  const before = heapAfterCollection(gc);
  const models = texts.map(build);
  const after = heapAfterCollection(gc);
  const chars = texts.reduce((sum, file) => sum + file.text.length, 0);
  // Read after the measurement, so the models are alive when it is taken.
  const plain = models.filter((model) => model.plain).length;
  return { name, files: texts.length, plain, chars, bytes: after - before, bytesPerChar: (after - before) / chars };
}

export async function modelHeapBench({ modules }) {
  const gc = collector();
  const parser = await modules.loadNginxParser();
  const build = ({ path, text }) => {
    const plain = modules.buildPlainConfigFile(path, text);
    if (plain) return { model: plain, plain: true };
    const tree = parser.parse(text);
    try {
      return { model: modules.buildTreeConfigFile(path, text, tree), plain: false };
    } finally {
      tree.delete();
    }
  };
  const corpus = allCorpusFiles().map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const big = [{ path: '/bench/generated.conf', text: corpusConfig(1_000_000) }];
  return [modelHeapOf(`corpus (${corpus.length} files)`, corpus, build, gc), modelHeapOf('generated ~1 MB config', big, build, gc)];
}
