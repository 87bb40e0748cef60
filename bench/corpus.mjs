// The test corpus as benchmark input: the files `nginx -t` accepted (MANIFEST.tsv's nginx_t column), replicated.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = path.join(root, 'test', 'corpus');

/** MANIFEST.tsv rows as objects (no quoted fields among the columns read here, so a plain split will do). */
function manifest() {
  const [header, ...rows] = readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const cols = header.split('\t');
  return rows.map((row) => {
    const cells = row.split('\t');
    return Object.fromEntries(cols.map((col, i) => [col, cells[i]]));
  });
}

/** The files nginx -t accepted, with the context they were tested in (main, http, server, location). */
export function validCorpusFiles() {
  return manifest()
    .filter((row) => row.nginx_t === 'ok')
    .map((row) => ({ path: path.join(corpusDir, row.file), context: row.nginx_t_context }));
}

/** Every corpus file (templates and non-nginx sigils too: the parser must cope with anything). */
export function allCorpusFiles() {
  const files = [];
  for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated']) {
    for (const name of readdirSync(path.join(corpusDir, dir)).sort()) files.push(path.join(corpusDir, dir, name));
  }
  return files;
}

/**
 * Copies the valid files `copies` times into `dir`/copyN/, each named *.conf so that every tool, ours included
 * (whose directory walk picks nginx files by name), checks the same set. Returns the copied paths and total bytes.
 */
export function replicateCorpus(dir, copies) {
  const files = [];
  let bytes = 0;
  for (let copy = 0; copy < copies; copy++) {
    const target = path.join(dir, `copy${copy}`);
    mkdirSync(target, { recursive: true });
    for (const file of validCorpusFiles()) {
      const name = path.basename(file.path);
      const copied = path.join(target, name.endsWith('.conf') ? name : `${name}.conf`);
      copyFileSync(file.path, copied);
      files.push(copied);
      bytes += statSync(copied).size;
    }
  }
  return { files: files.sort(), bytes };
}

/** `count` files spread evenly over `files` (deterministic, so every run samples the same ones). */
export function sample(files, count) {
  if (files.length <= count) return [...files];
  return Array.from({ length: count }, (_, i) => files[Math.floor((i * files.length) / count)]);
}

/** The valid files' texts, each wrapped to be valid inside http{} (server and location snippets get their blocks). */
export function httpLevelSnippets() {
  return validCorpusFiles()
    .filter((file) => ['http', 'server', 'location'].includes(file.context))
    .map((file) => {
      const text = readFileSync(file.path, 'utf8');
      if (file.context === 'http') return text;
      if (file.context === 'server') return `server {\n${text}\n}\n`;
      return `server {\nlocation / {\n${text}\n}\n}\n`;
    });
}
