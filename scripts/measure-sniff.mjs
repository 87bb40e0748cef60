#!/usr/bin/env node
// Measures which files a directory check would read (server/src/engine/nginx-files.ts) on trees whose truth is known:
//   - the corpus (../shared/corpus or CORPUS_DIR): every nginx/, sigil/ and templated/ file is nginx, no sigil_other/
//     file is; each is judged under its original file name (MANIFEST.tsv), as a walk of its repository would;
//   - this repository's node_modules and the host's /etc (or the directories given as arguments): nothing is nginx
//     except what lies under Debian's /etc/nginx.
// Two numbers per tree: "walk" is the whole rule (names, then the sniffs); "content" is the strict content sniff
// alone on every readable file whatever its name, i.e. how the sniff does when a name says nothing.
// Usage: node scripts/measure-sniff.mjs [non-nginx trees...]     (docs/usage.md quotes its output)
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importTs } from './bundle-ts.mjs';

const repo = path.resolve(import.meta.dirname, '..');
const corpus = process.env.CORPUS_DIR ?? path.resolve(repo, '../shared/corpus');
const trees = process.argv.length > 2 ? process.argv.slice(2) : [path.join(repo, 'node_modules'), '/etc'];

// The TypeScript sources, bundled on the fly: the numbers are those of the code in the working tree.
const { modules: sniff, cleanup } = await importTs('measure-sniff', "export * from './server/src/engine/nginx-files.ts';");
cleanup();

/** What a walk decides for `name` with these bytes (the same steps as classifyFile, without the file system). */
function walkClaims(name, bytes) {
  const byName = sniff.claimByName(name);
  if (byName.kind !== 'sniff') return byName.kind === 'nginx';
  if (byName.test === 'content' && !byName.conf && bytes.length > sniff.MAX_SNIFFED_FILE_BYTES) return false;
  const prefix = bytes.subarray(0, sniff.SNIFF_BYTES);
  return sniff.claimByContent(byName.test, prefix, bytes.length > sniff.SNIFF_BYTES).claimed;
}
function contentClaims(bytes) {
  return sniff.claimByContent('content', bytes.subarray(0, sniff.SNIFF_BYTES), bytes.length > sniff.SNIFF_BYTES).claimed;
}

function tally() {
  return { tp: 0, fp: 0, fn: 0, tn: 0, fpByName: 0, misses: [], falseClaims: [] };
}
function count(t, isNginx, claimed, label) {
  if (isNginx && claimed) t.tp++;
  else if (isNginx) (t.fn++, t.misses.push(label));
  else if (claimed) (t.fp++, t.falseClaims.push(label));
  else t.tn++;
}
const pct = (a, b) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
function print(title, t) {
  const files = t.tp + t.fp + t.fn + t.tn;
  console.log(
    `${title}: ${files} files, ${t.tp + t.fn} nginx; claimed ${t.tp + t.fp} ` +
      `(precision ${pct(t.tp, t.tp + t.fp)}, recall ${pct(t.tp, t.tp + t.fn)}; ${t.fp} false, ${t.fn} missed)` +
      (t.fpByName > 0 ? `; of the false, ${t.fpByName} by name (*.conf), ${t.fp - t.fpByName} by content` : ''),
  );
  for (const label of t.misses.slice(0, 15)) console.log(`    missed: ${label}`);
  for (const label of t.falseClaims.filter((label) => !label.endsWith('.conf')).slice(0, 15)) {
    console.log(`    falsely claimed: ${label}`);
  }
}

// The corpus, each file under its original name.
if (existsSync(path.join(corpus, 'MANIFEST.tsv'))) {
  const rows = readFileSync(path.join(corpus, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  const walk = tally();
  const content = tally();
  for (const row of rows) {
    const [file, kind, , originalPath] = row.split('\t');
    const bytes = readFileSync(path.join(corpus, file));
    const isNginx = kind !== 'sigil_other';
    count(walk, isNginx, walkClaims(path.basename(originalPath), bytes), `${file} (${kind})`);
    count(content, isNginx, contentClaims(bytes), `${file} (${kind})`);
  }
  print(`corpus walk`, walk);
  print(`corpus content sniff alone`, content);
} else {
  console.log(`no corpus at ${corpus} (set CORPUS_DIR)`);
}

// Non-nginx trees: every regular file, including those a walk would never enter (node_modules is one).
for (const tree of trees) {
  const walk = tally();
  const content = tally();
  const pending = [tree];
  while (pending.length > 0) {
    const directory = pending.pop();
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) pending.push(file);
      if (!entry.isFile()) continue;
      let bytes;
      try {
        if (lstatSync(file).size > 64 * 1024 * 1024) continue;
        bytes = readFileSync(file);
      } catch {
        continue; // unreadable: not sniffable by anyone
      }
      const isNginx = tree === '/etc' && file.startsWith('/etc/nginx/');
      const label = path.relative(tree, file);
      const claimed = walkClaims(entry.name, bytes);
      count(walk, isNginx, claimed, label);
      if (claimed && !isNginx && sniff.claimByName(entry.name).kind === 'nginx') walk.fpByName++;
      count(content, isNginx, contentClaims(bytes), label);
    }
  }
  print(`${tree} walk`, walk);
  print(`${tree} content sniff alone`, content);
}
writeFileSync(1, '');
