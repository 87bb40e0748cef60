// Bundles the CLI, the language server and the extension into dist/, with the wasm files beside them; also the
// language server for a web worker and the extension's browser entry (VS Code for the Web).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, existsSync, chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { browserOptions } from './scripts/browser/options.mjs';
import { bundleLoader, CLI_V8_FLAGS } from './scripts/cli-loader.mjs';
import { ruleDocsDefine } from './scripts/rule-docs.mjs';

const require = createRequire(import.meta.url);
const dist = 'dist';
mkdirSync(dist, { recursive: true });

const wasmFiles = [
  ['grammars/nginx/tree-sitter-nginx.wasm', 'tree-sitter-nginx.wasm'],
  [path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), 'web-tree-sitter.wasm'],
];
for (const [from, to] of wasmFiles) copyFileSync(from, path.join(dist, to));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // The rules' documentation pages, for `nginx-keepalive rule <id>` (server/src/engine/rule-docs.ts): dist/ ships
  // without docs/.
  define: ruleDocsDefine('.'),
};

/**
 * dist/cli.js leaves the language server out: `nginx-keepalive lsp` imports dist/server.js (the bundle editors start)
 * when asked, so `check` loads and compiles half the code. The single executable (scripts/build-binary.mjs) still
 * bundles it, as it reads nothing beside itself. Minified (less to compile per run); NK_NO_MINIFY=1 keeps the names
 * for CPU profiles.
 */
const serverBesideCli = {
  name: 'server-beside-cli',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\/lsp\/server\.js$/ }, (args) =>
      args.importer.endsWith(path.join('server', 'src', 'main.ts')) ? { path: './server.js', external: true } : undefined,
    );
  },
};

/**
 * The node language server reads nginx.org's reference from dist/nginx-docs.json on first use instead of carrying it
 * in its bundle (server/src/model/nginx-docs-beside.ts says why). The browser's server, the CLI and the single
 * executable keep it embedded: they read nothing beside themselves.
 */
const docsBesideServer = {
  name: 'nginx-docs-beside-server',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\/nginx-docs-text\.js$/ }, (args) => ({ path: path.join(args.resolveDir, 'nginx-docs-beside.ts') }));
  },
};

const entries = [
  // CommonJS, run by the loader dist/cli.js from V8's code cache (scripts/cli-loader.mjs says why); import.meta.url is
  // the loader's, which the loader passes in.
  { entryPoints: ['server/src/main.ts'], outfile: `${dist}/cli-main.cjs`, format: 'cjs',
    define: { ...common.define, 'import.meta.url': '__nkImportMetaUrl' },
    plugins: [serverBesideCli], minify: process.env.NK_NO_MINIFY === undefined },
  // The worker threads of `check --jobs N`, run by the loader dist/cli-worker.js from V8's code cache too (a worker
  // compiling its bundle from source cost each parallel run tens of milliseconds); cli.js looks for it beside itself.
  { entryPoints: ['server/src/cli/parallel/worker.ts'], outfile: `${dist}/cli-worker.cjs`, format: 'cjs',
    define: { ...common.define, 'import.meta.url': '__nkImportMetaUrl' }, minify: process.env.NK_NO_MINIFY === undefined },
];
if (existsSync('server/src/lsp/main.ts')) {
  // CommonJS, run by the loader dist/server.js from V8's code cache like the CLI's; editors start dist/server.js with
  // --stdio or --node-ipc, and `nginx-keepalive lsp` imports it. Minified like the CLI: a third less to read, and a
  // smaller code cache to load, before the first diagnostics (about 5 ms of CPU).
  entries.push({ entryPoints: ['server/src/lsp/main.ts'], outfile: `${dist}/server-main.cjs`, format: 'cjs',
    define: { ...common.define, 'import.meta.url': '__nkImportMetaUrl' }, plugins: [docsBesideServer],
    minify: process.env.NK_NO_MINIFY === undefined });
  copyFileSync('server/src/model/nginx-docs.json', `${dist}/nginx-docs.json`);
}
if (existsSync('client/src/extension.ts')) {
  // CommonJS for the extension host; vscode is provided by it. The language client's kill helper is a shell script
  // it looks for beside its own code, so it is copied next to the bundle.
  entries.push({ entryPoints: ['client/src/extension.ts'], outfile: `${dist}/extension.cjs`, format: 'cjs', external: ['vscode'], minify: true });
  copyFileSync(path.join(path.dirname(require.resolve('vscode-languageclient/node')), 'lib/node/terminateProcess.sh'), `${dist}/terminateProcess.sh`);
}
const browserEntries = [];
if (existsSync('server/src/lsp/browser-main.ts')) {
  // The language server in a web worker, for the extension's browser entry (VS Code for the Web). A classic worker
  // script (VS Code's web extension host starts it with `new Worker(url)`); the wasm files beside it are fetched.
  browserEntries.push({ ...browserOptions(), entryPoints: ['server/src/lsp/browser-main.ts'], outfile: `${dist}/server-browser.js`,
    // import.meta is an ESM thing; the loader's disk lookup that reads it never runs where wasm URLs are given.
    format: 'iife', define: { ...ruleDocsDefine('.'), 'import.meta.url': 'globalThis.location.href' } });
}
if (existsSync('client/src/browser-extension.ts')) {
  // CommonJS for the web extension host; the document claim it shares with the CLI reads no disk there.
  browserEntries.push({ ...browserOptions(), entryPoints: ['client/src/browser-extension.ts'], outfile: `${dist}/extension-browser.cjs`,
    format: 'cjs', external: ['vscode'] });
}
await Promise.all([...entries.map((entry) => build({ ...common, ...entry })), ...browserEntries.map((entry) => build(entry))]);
// A script compiled with V8's cached data loses its dynamic import() callback on node 20, so the bundles' import()s
// (of ./server.js for `lsp`, web-tree-sitter's of node's modules) go through the loader's require, passed in as
// _nkImp (as long as `import`: the source maps stay right).
function writeLoader(bundle, loader, name, v8Flags) {
  const text = readFileSync(`${dist}/${bundle}`, 'utf8').replaceAll('import("', '_nkImp("');
  if (/\bimport\s*\(/.test(text)) throw new Error(`dist/${bundle}: an import() the loader does not serve`);
  writeFileSync(`${dist}/${bundle}`, text);
  const bundleHash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  writeFileSync(`${dist}/${loader}`, bundleLoader({ bundle, name, bundleHash, v8Flags }));
}
// The loaders are CommonJS (scripts/cli-loader.mjs says why), in a package whose package.json says "module".
writeFileSync(`${dist}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
// The command sets V8 flags for itself (CLI_V8_FLAGS says which and why); its --jobs workers share the process's.
writeLoader('cli-main.cjs', 'cli.js', 'cli', CLI_V8_FLAGS);
writeLoader('cli-worker.cjs', 'cli-worker.js', 'cli-worker');
if (existsSync('server/src/lsp/main.ts')) writeLoader('server-main.cjs', 'server.js', 'server');
chmodSync(`${dist}/cli.js`, 0o755);
