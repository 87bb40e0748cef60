// dist/server-main.cjs's nginx-docs-text.ts (esbuild.mjs swaps it in): the reference read from dist/nginx-docs.json,
// beside the bundle, the first time a hover or a completion needs it. Embedded, its 0.4 MB of JSON was in the
// bundle's source, which V8 keeps, and again as a string constant of 0.8 MB (its few non-Latin-1 characters make the
// whole string two bytes a character), both held for the life of a server that may never show a hover: 1.2 MB of a
// heap whose size decides the RSS goal (docs/speed.md). Read here, the text is dropped once parsed (nginx-docs.ts).
import path from 'node:path';
import { readRegularFile } from '../util/read-file.js';

/** The file is ~0.4 MB; a bound keeps a damaged install from reading something else whole. */
const MAX_DOCS_BYTES = 8 * 1024 * 1024;

export function packedDocsText(): string {
  const file = path.join(__dirname, 'nginx-docs.json');
  const read = readRegularFile(file, MAX_DOCS_BYTES);
  if (read.kind !== 'read') throw new Error(`nginx-keepalive cannot read its nginx reference ${file} (${read.kind}): reinstall it`);
  return (JSON.parse(read.bytes.toString('utf8')) as { packed: string }).packed;
}
