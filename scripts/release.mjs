#!/usr/bin/env node
// `npm run release`: every artifact of the version in package.json, built from a clean tree into build/release/:
//   nginx-keepalive-<v>.tgz              the npm package (the CLI and the language server), checked by
//                                        `npm publish --dry-run` (scripts/pack-npm.mjs)
//   nginx-keepalive-<v>.vsix             the VS Code extension, for the Marketplace and Open VSX
//                                        (scripts/package-vsix.mjs --marketplace: its page's images linked at tag v<v>)
//   nginx-keepalive-<v>-linux-x64        the single executable (scripts/build-binary.mjs; Linux x64 only: the one
//                                        platform built, on the platform it is built on)
//   RELEASE_NOTES.md                     the version's section of CHANGELOG.md
//   SHA256SUMS                           of the files above (`sha256sum --check SHA256SUMS`)
// One build: dist/ is bundled once and both packages take their files from it. Publishing stays by hand:
//   npm publish build/release/nginx-keepalive-<v>.tgz; npx vsce publish --packagePath build/release/*.vsix;
//   npx ovsx publish build/release/*.vsix; a GitHub release of tag v<v> with the notes and every file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseNotes } from './release/changelog.mjs';
import { versionPlaces } from './release/versions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build/release');

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

function run(script, args = []) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) fail(`${script} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  process.stdout.write(`${script}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

// A release is what the commit holds: nothing uncommitted, nothing untracked that is not ignored.
const status = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
if (status.status !== 0) fail(`git status failed: ${status.stderr}`);
if (status.stdout.trim() !== '') fail(`the tree is not clean; commit or stash first:\n${status.stdout}`);
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const stale = versionPlaces(root).filter((place) => place.version !== version);
if (stale.length > 0) fail(`not every place says ${version}: ${stale.map((place) => `${place.file}:${place.line} ${place.what}`).join(', ')}`);
let notes;
try {
  notes = releaseNotes(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), version);
} catch (error) {
  fail(error.message);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run('esbuild.mjs');
run('scripts/pack-npm.mjs', ['--no-build', '--publish-dry-run', '--out-dir', out]);
run('scripts/package-vsix.mjs', ['--no-build', '--marketplace', '--out', path.join(out, `nginx-keepalive-${version}.vsix`)]);
run('scripts/build-binary.mjs');
copyFileSync(path.join(root, 'build/binary/nginx-keepalive'), path.join(out, `nginx-keepalive-${version}-linux-x64`));
writeFileSync(path.join(out, 'RELEASE_NOTES.md'), notes);

const artifacts = readdirSync(out).sort();
const sums = artifacts.map((name) => `${createHash('sha256').update(readFileSync(path.join(out, name))).digest('hex')}  ${name}\n`);
writeFileSync(path.join(out, 'SHA256SUMS'), sums.join(''));
process.stdout.write(`${path.relative(process.cwd(), out) || out}: ${[...artifacts, 'SHA256SUMS'].join(', ')}\n`);
