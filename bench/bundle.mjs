// Plain .mjs benchmark code using the project's TypeScript, bundled through scripts/bundle-ts.mjs, so the benchmark
// runs exactly the code the CLI ships (and the test suite's own nginx and Dokku helpers).
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleTs, importTs } from '../scripts/bundle-ts.mjs';
import { root } from './corpus.mjs';

/** The parser loader, web-tree-sitter's Edit, analyze() and the model builders; the wasm files go beside the bundle, where the loader looks. */
export async function loadServerModules() {
  const entry = [
    "export { loadNginxParser } from './server/src/parser/loader.ts';",
    "export { Edit } from 'web-tree-sitter';",
    "export { analyze } from './server/src/engine/analyze.ts';",
    "export { materializeFixes } from './server/src/engine/lazy-fix.ts';",
    "export { buildPlainConfigFile, buildTreeConfigFile } from './server/src/model/build.ts';",
  ].join('\n');
  const { dir, file, cleanup } = await bundleTs('bench-server', entry);
  try {
    const require = createRequire(import.meta.url);
    copyFileSync(path.join(path.dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), path.join(dir, 'web-tree-sitter.wasm'));
    copyFileSync(path.join(root, 'grammars/nginx/tree-sitter-nginx.wasm'), path.join(dir, 'tree-sitter-nginx.wasm'));
    return { modules: await import(pathToFileURL(file).href), cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
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
  const { modules, cleanup } = await importTs('bench-support', entry, { define: { 'import.meta.url': JSON.stringify(renderSigil) } });
  return { modules, cleanup };
}
