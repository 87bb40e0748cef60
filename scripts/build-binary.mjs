#!/usr/bin/env node
// `npm run build:binary`: one executable, build/binary/nginx-keepalive, for hosts without node (where `nginx -T`
// runs). It is Node's single-executable application (SEA): a copy of the node running this script with the CLI
// bundle and the two wasm files (runtime and grammar, sea-config.json "assets") injected by postject. It runs
// `check` and `lsp` from any directory; it reads nothing beside itself (server/src/util/sea.ts, parser/loader.ts).
//
// Not in dist/: dist/ is what the npm package and the VSIX ship, and this file is the size of node (~100 MB).
// build/ is gitignored. Linux only: macOS and Windows need the executable's signature removed and redone.
// Needs node >= 20.12 (SEA assets); the binary has the version of the node that builds it.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import postject from 'postject';
import { CLI_V8_FLAGS } from './cli-loader.mjs';
import { ruleDocsDefine } from './rule-docs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = JSON.parse(readFileSync(path.join(root, 'sea-config.json'), 'utf8'));
const outDir = path.join(root, 'build/binary');
const binary = path.join(outDir, 'nginx-keepalive');
// The fuse node's own SEA code looks for; fixed by node (see https://nodejs.org/api/single-executable-applications.html).
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function fail(message) {
  process.stderr.write(`build:binary: ${message}\n`);
  process.exit(1);
}

if (process.platform !== 'linux') fail(`builds Linux executables only (this is ${process.platform})`);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 12)) fail(`needs node >= 20.12 for SEA assets (this is ${process.version})`);

const started = performance.now();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// 1. The CLI as one CommonJS file: node 20's SEA runs only a CommonJS main script, and its `require` reaches only
// node's built-in modules, so everything else is bundled. import.meta.url (worker-pool.ts looks for a worker beside
// itself) becomes the executable's own URL; the wasm files come from the assets, not from beside it.
await build({
  entryPoints: [path.join(root, 'server/src/main.ts')],
  outfile: path.join(root, config.main),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  // The rules' documentation pages are embedded (server/src/engine/rule-docs.ts): the executable reads nothing beside it.
  define: { 'import.meta.url': '__nkImportMetaUrl', ...ruleDocsDefine(root) },
  // The V8 flags dist/cli.js sets (CLI_V8_FLAGS says why), set here too before the bundle's code runs.
  banner: {
    js: [
      ...CLI_V8_FLAGS.map((flag) => `require('node:v8').setFlagsFromString(${JSON.stringify(flag)});`),
      "var __nkImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    ].join('\n'),
  },
});

// 2. The blob: the bundle and the assets named in sea-config.json (paths relative to the repository).
const blob = spawnSync(process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: root, encoding: 'utf8' });
if (blob.status !== 0) fail(`node --experimental-sea-config failed:\n${blob.stdout}${blob.stderr}`);

// 3. A copy of this node with the blob injected. The blob is tied to this node's version, so it is this node.
copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
await postject.inject(binary, 'NODE_SEA_BLOB', readFileSync(path.join(root, config.output)), {
  sentinelFuse: SENTINEL_FUSE,
});

const megabytes = (statSync(binary).size / 1024 / 1024).toFixed(1);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${path.relative(root, binary)}: ${megabytes} MB, node ${process.version}, built in ${seconds} s\n`);
