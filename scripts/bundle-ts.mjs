// The one way plain .mjs scripts and benchmarks run the project's TypeScript: esbuild bundles an entry into a temp
// directory and the bundle is imported, so a script runs exactly the code the tests and the CLI run, with no build
// step and no TypeScript loader.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundled CommonJS dependencies call require(); an ES module has none unless it is made. */
export const REQUIRE_BANNER =
  "import { createRequire as __nkCreateRequire } from 'node:module'; const require = __nkCreateRequire(import.meta.url);";

/**
 * Bundles `contents` (TypeScript re-exports, resolved from the repository root) into `<temp dir>/<name>.mjs`.
 * `extra` is merged into esbuild's options (e.g. `define`). The caller removes the directory with cleanup(); it is
 * kept until then because a bundle may load files beside itself later (the parser's wasm files).
 */
export async function bundleTs(name, contents, extra = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `nk-${name}-`));
  const file = path.join(dir, `${name}.mjs`);
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await build({
      stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: `${name}-entry.ts` },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: file,
      banner: { js: REQUIRE_BANNER },
      logLevel: 'warning',
      ...extra,
    });
  } catch (error) {
    cleanup();
    throw error;
  }
  return { dir, file, cleanup };
}

/** bundleTs, then import the bundle: `{ modules, dir, cleanup }`. */
export async function importTs(name, contents, extra = {}) {
  const bundle = await bundleTs(name, contents, extra);
  try {
    return { modules: await import(pathToFileURL(bundle.file).href), dir: bundle.dir, cleanup: bundle.cleanup };
  } catch (error) {
    bundle.cleanup();
    throw error;
  }
}
