// `npm run build:playground`: the static playground in dist/playground/ (index.html, style.css, playground.js, the
// two wasm files and THIRD-PARTY-NOTICES.txt). No CDN and no network at run time: everything the page needs is in
// that directory, so any static server (or `python3 -m http.server`) serves it. The core is bundled for the browser
// (scripts/browser/), the disk a virtual FileHost.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserOptions } from './browser/options.mjs';
import { ruleDocsDefine } from './rule-docs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = path.join(root, 'dist', 'playground');

/** The licence of every npm package the bundle holds code of (the metafile's inputs under node_modules/). */
function thirdPartyNotices(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [...packages].sort().map((name) => {
    const dir = path.join(root, 'node_modules', name);
    const { version, license } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
    const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : `(${license}; the package ships no licence file)`;
    return `${name} ${version} (${license})\n\n${text}\n`;
  });
  return `playground.js bundles these npm packages besides nginx-keepalive's own code (MIT).\n\n${sections.join('\n---\n\n')}`;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  ...browserOptions(),
  // The inputs tell which npm packages the bundle holds code of (thirdPartyNotices).
  metafile: true,
  entryPoints: [path.join(root, 'server/src/playground/page.ts')],
  outfile: path.join(out, 'playground.js'),
  format: 'esm',
  define: ruleDocsDefine(root),
});
writeFileSync(path.join(out, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(Object.keys(result.metafile.inputs)));
for (const file of ['index.html', 'style.css']) copyFileSync(path.join(root, 'playground', file), path.join(out, file));
copyFileSync(path.join(root, 'grammars/nginx/tree-sitter-nginx.wasm'), path.join(out, 'tree-sitter-nginx.wasm'));
copyFileSync(path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), path.join(out, 'web-tree-sitter.wasm'));
console.log(`playground written to ${path.relative(process.cwd(), out) || '.'}/ (serve it, then open index.html)`);
