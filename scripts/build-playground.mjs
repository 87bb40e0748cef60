// `npm run build:playground`: the static playground in dist/playground/ (index.html, style.css, playground.js and
// the two wasm files). No CDN and no network at run time: everything the page needs is in that directory, so any
// static server (or `python3 -m http.server`) serves it. The core is bundled for the browser: node:path is
// path-browserify, every other node built-in a stub that throws (scripts/browser/), the disk a virtual FileHost.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleDocsDefine } from './rule-docs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = path.join(root, 'dist', 'playground');
const stub = path.join(root, 'scripts/browser/node-builtin-stub.cjs');

/** node:path and path become path-browserify; any other built-in the stub. */
const nodeBuiltins = {
  name: 'node-builtins-for-the-browser',
  setup(bundle) {
    bundle.onResolve({ filter: /^(node:)?(path|fs|fs\/promises|url|util|crypto|os|module|sea|child_process|worker_threads|tty|timers\/promises)$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      return { path: name === 'path' ? require.resolve('path-browserify') : stub };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(root, 'server/src/playground/page.ts')],
  outfile: path.join(out, 'playground.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
  plugins: [nodeBuiltins],
  inject: [path.join(root, 'scripts/browser/process-shim.mjs')],
  define: ruleDocsDefine(root),
});
for (const file of ['index.html', 'style.css']) copyFileSync(path.join(root, 'playground', file), path.join(out, file));
copyFileSync(path.join(root, 'grammars/nginx/tree-sitter-nginx.wasm'), path.join(out, 'tree-sitter-nginx.wasm'));
copyFileSync(path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), path.join(out, 'web-tree-sitter.wasm'));
console.log(`playground written to ${path.relative(process.cwd(), out) || '.'}/ (serve it, then open index.html)`);
