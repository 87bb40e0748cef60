// `npm run release` in a temporary clone of the working tree (test/release/clone.ts): every artifact in
// build/release/, their checksums and the release notes; and no release from a tree with uncommitted changes.
// The whole release (bundles, npm tarball, VSIX, single executable) takes about 20 s here.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseNotes } from '../../scripts/release/changelog.mjs';
import { REPO_ROOT } from '../support/lsp-client.js';
import { cloneWorkingTree } from './clone.js';

const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ARTIFACTS = [`nginx-keepalive-${VERSION}-linux-x64`, `nginx-keepalive-${VERSION}.tgz`, `nginx-keepalive-${VERSION}.vsix`, 'RELEASE_NOTES.md'];

let parent = '';
let root = '';
let out = '';
let release: SpawnSyncReturns<string>;

function npmRunRelease(): SpawnSyncReturns<string> {
  return spawnSync('npm', ['run', '--silent', 'release'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: path.join(parent, 'npm-cache'), npm_config_update_notifier: 'false' },
  });
}

beforeAll(() => {
  ({ parent, root } = cloneWorkingTree());
  out = path.join(root, 'build/release');
  release = npmRunRelease();
}, 300_000);

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('npm run release', () => {
  it('builds every artifact into build/release/, with SHA256SUMS', () => {
    expect(release.status, release.stdout + release.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([...ARTIFACTS, 'SHA256SUMS'].sort());
    const check = spawnSync('sha256sum', ['--check', '--strict', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout.split('\n').filter(Boolean).sort()).toEqual(ARTIFACTS.map((name) => `${name}: OK`).sort());
  });

  it('writes the version\'s release notes from CHANGELOG.md', () => {
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    expect(readFileSync(path.join(out, 'RELEASE_NOTES.md'), 'utf8')).toBe(releaseNotes(changelog, VERSION));
  });

  it('packs the npm package and the VSIX of this version, and a Linux executable that runs', () => {
    const tarball = path.join(out, `nginx-keepalive-${VERSION}.tgz`);
    const npmManifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect(npmManifest).toMatchObject({ name: 'nginx-keepalive', version: VERSION });
    expect(npmManifest).not.toHaveProperty('private');
    const vsix = path.join(out, `nginx-keepalive-${VERSION}.vsix`);
    const vsixManifest = JSON.parse(spawnSync('unzip', ['-p', vsix, 'extension/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect(vsixManifest).toMatchObject({ name: 'nginx-keepalive', version: VERSION, publisher: 'nginx-keepalive' });
    expect(spawnSync('unzip', ['-l', vsix], { encoding: 'utf8' }).stdout).toContain('extension/changelog.md');
    // The Marketplace's and Open VSX's pages resolve no link into the VSIX: the images are the repository's, at the tag.
    const readme = spawnSync('unzip', ['-p', vsix, 'extension/readme.md'], { encoding: 'utf8' }).stdout;
    const images = [...readme.matchAll(/!\[[^\]\n]*\]\(([^)\n]+)\)/g)].map((match) => match[1] ?? '');
    expect(images.length).toBeGreaterThan(0);
    const base = `https://raw.githubusercontent.com/nginx-keepalive/nginx-keepalive/v${VERSION}/`;
    for (const image of images) {
      expect(image.startsWith(base), image).toBe(true);
      expect(existsSync(path.join(root, image.slice(base.length))), image).toBe(true);
    }
    const binary = path.join(out, `nginx-keepalive-${VERSION}-linux-x64`);
    expect(statSync(binary).mode & 0o111).toBe(0o111);
    const version = spawnSync(binary, ['--version'], { cwd: parent, encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(VERSION);
  });

  it('refuses a tree with uncommitted changes, and builds nothing', () => {
    writeFileSync(path.join(root, 'notes.txt'), 'not committed\n');
    const before = statSync(path.join(out, 'SHA256SUMS')).mtimeMs;
    const dirty = npmRunRelease();
    expect(dirty.status).toBe(1);
    expect(dirty.stderr).toContain('the tree is not clean');
    expect(dirty.stderr).toContain('notes.txt');
    expect(statSync(path.join(out, 'SHA256SUMS')).mtimeMs).toBe(before);
    rmSync(path.join(root, 'notes.txt'));
  });
});
