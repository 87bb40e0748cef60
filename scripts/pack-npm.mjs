#!/usr/bin/env node
// Builds dist/ and packs the npm package, the CLI: nginx-keepalive-<version>.tgz (`npm run pack:npm`).
//   node scripts/pack-npm.mjs [--out-dir <dir>] [--no-build] [--publish-dry-run]
// npm packs the directory it runs in, with that directory's README.md and package.json. Both are the extension's and
// the repository's here, so, as scripts/package-vsix.mjs does for the VSIX, the package is packed from a staging
// directory: the manifest scripts/release/npm-manifest.mjs derives, server/NPM.md as its README, LICENSE,
// CHANGELOG.md, and the files package.json's "files" names (the CLI and language server bundles, the wasm files and
// the settings schema; the rules' documentation is inside the bundles). --publish-dry-run also runs
// `npm publish --dry-run` on that directory, which checks the manifest as publishing would and uploads nothing.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmManifest } from './release/npm-manifest.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

function option(name) {
  const index = process.argv.indexOf(name);
  return index !== -1 ? process.argv[index + 1] : undefined;
}

const outDir = path.resolve(option('--out-dir') ?? root);
if (!process.argv.includes('--no-build')) run(process.execPath, ['esbuild.mjs'], root);
const manifest = npmManifest(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')));
const dir = mkdtempSync(path.join(tmpdir(), 'nk-npm-'));
try {
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(path.join(root, 'server/NPM.md'), path.join(dir, 'README.md'));
  for (const name of ['LICENSE', ...manifest.files]) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    cpSync(path.join(root, name), path.join(dir, name), { recursive: true });
  }
  // No lifecycle script runs: the staged manifest has none, and the staging directory holds no node_modules.
  if (process.argv.includes('--publish-dry-run')) run(npm, ['publish', '--dry-run', '--ignore-scripts', '--offline'], dir);
  mkdirSync(outDir, { recursive: true });
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], dir));
  const tarball = path.join(outDir, packed.filename);
  process.stdout.write(`${path.relative(process.cwd(), tarball) || tarball}: ${(packed.size / 1024).toFixed(1)} KiB, ${packed.entryCount} files\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
