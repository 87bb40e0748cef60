// esbuild options shared by the bundles that run the core in a browser (the playground page, the language server's
// web worker, the extension's browser entry): node:path is path-browserify, node:url's file-URL functions url.mjs,
// every other node built-in an empty module (node-builtin-stub.cjs), `process`, `setImmediate` and `Buffer` the
// shims of globals.mjs, and vscode-languageserver's node entry its browser one. The core reaches files only through
// a FileHost, which in a browser holds no disk.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const nodeBuiltins = {
  name: 'node-builtins-for-the-browser',
  setup(bundle) {
    const builtin = /^(node:)?(path|fs|fs\/promises|url|util|crypto|os|module|sea|child_process|worker_threads|tty|timers\/promises|net)$/;
    bundle.onResolve({ filter: builtin }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (name === 'path') return { path: require.resolve('path-browserify') };
      if (name === 'url') return { path: path.join(here, 'url.mjs') };
      return { path: path.join(here, 'node-builtin-stub.cjs') };
    });
    bundle.onResolve({ filter: /^vscode-languageserver\/node(\.js)?$/ }, () => ({ path: require.resolve('vscode-languageserver/browser') }));
  },
};

export function browserOptions() {
  return {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
    plugins: [nodeBuiltins],
    inject: [path.join(here, 'globals.mjs')],
  };
}
