#!/usr/bin/env node
// Regenerates schemas/nginx-keepalive.schema.json from the rule registry (`npm run schema`). The TypeScript sources
// are bundled with esbuild into a temp dir and imported, so this plain .mjs runs the same code the tests compare with.
//   node scripts/build-schema.mjs
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'schemas/nginx-keepalive.schema.json');
const entry = [
  "export { renderConfigSchema } from './server/src/core/config-schema.ts';",
  "export { rules } from './server/src/rules/registry.ts';",
].join('\n');

const dir = mkdtempSync(path.join(tmpdir(), 'nk-schema-'));
try {
  const outfile = path.join(dir, 'schema.mjs');
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'schema-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  const { renderConfigSchema, rules } = await import(pathToFileURL(outfile).href);
  writeFileSync(target, renderConfigSchema(rules));
  console.log(`wrote ${path.relative(root, target)} (${rules.length} rules)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
