// Plain .mjs benchmark code using the project's TypeScript: bundled with esbuild into a temp dir, so the benchmark
// runs exactly the code the CLI ships (and the test suite's own nginx and Dokku helpers).
import { build } from 'esbuild';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './corpus.mjs';

const REQUIRE_BANNER =
  "import { createRequire as __nkCreateRequire } from 'node:module'; const require = __nkCreateRequire(import.meta.url);";

async function bundle(name, contents, extra = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-bench-'));
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: path.join(dir, `${name}.mjs`),
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
    ...extra,
  });
  return dir;
}

/** The parser loader, web-tree-sitter's Edit and analyze(); the wasm files go beside the bundle, where the loader looks. */
export async function loadServerModules() {
  const entry = [
    "export { loadNginxParser } from './server/src/parser/loader.ts';",
    "export { Edit } from 'web-tree-sitter';",
    "export { analyze } from './server/src/core/analyze.ts';",
  ].join('\n');
  const dir = await bundle('server', entry);
  const require = createRequire(import.meta.url);
  copyFileSync(path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), path.join(dir, 'web-tree-sitter.wasm'));
  copyFileSync(path.join(root, 'grammars/nginx/tree-sitter-nginx.wasm'), path.join(dir, 'tree-sitter-nginx.wasm'));
  const modules = await import(pathToFileURL(path.join(dir, 'server.mjs')).href);
  return { modules, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** test/support's Dokku stand-in (variables, sigil rendering with the Go renderer) and real-nginx helpers. */
export async function loadTestSupport() {
  const entry = [
    "export { DokkuHost } from './test/support/dokku.ts';",
    "export { renderSigil } from './test/support/render-sigil.ts';",
    "export { startNginx, freePort, nginxTestFile, makePrefix } from './test/support/nginx.ts';",
  ].join('\n');
  // render-sigil.ts finds its Go source next to itself through import.meta.url: keep pointing it there.
  const renderSigil = pathToFileURL(path.join(root, 'test/support/render-sigil.ts')).href;
  const dir = await bundle('support', entry, { define: { 'import.meta.url': JSON.stringify(renderSigil) } });
  const modules = await import(pathToFileURL(path.join(dir, 'support.mjs')).href);
  return { modules, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
