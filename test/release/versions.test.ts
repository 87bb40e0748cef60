// One version everywhere (scripts/release/versions.mjs lists the places), and `npm run version:bump` moving all of
// them, with the changelog, in a temporary clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../server/src/engine/version.js';
import { CLI } from '../cli/helpers.js';
import { LspClient, REPO_ROOT } from '../support/lsp-client.js';
import { cloneWorkingTree } from './clone.js';
import { latestRelease, releaseNotes } from '../../scripts/release/changelog.mjs';
import { versionPlaces as places } from '../../scripts/release/versions.mjs';

const manifestVersion = (root: string): string => (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const version = manifestVersion(REPO_ROOT);
const clones: string[] = [];
afterAll(() => clones.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the version', () => {
  it('is package.json\'s in every place it is written', () => {
    const found = places(REPO_ROOT);
    expect(found.map((place) => place.file)).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'CHANGELOG.md']));
    expect(found.filter((place) => place.version !== version)).toEqual([]);
    // The GitHub action pins the CLI it installs: an action.yml whose pin is not found would be left behind by a bump.
    if (existsSync(path.join(REPO_ROOT, 'action.yml'))) expect(found.map((place) => place.file)).toContain('action.yml');
  });

  it('is what --version prints and what the language server sends as serverInfo', async () => {
    expect(VERSION).toBe(version);
    const result = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    expect(result.stdout.trim()).toBe(version);
    const client = await LspClient.start();
    expect(client.initializeResult.serverInfo).toEqual({ name: 'nginx-keepalive', version });
    await client.stop();
  });

  it('has its release notes in CHANGELOG.md', () => {
    const changelog = readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
    expect(latestRelease(changelog)?.name).toBe(version);
    expect(releaseNotes(changelog, version)).toMatch(new RegExp(`^# nginx-keepalive ${version.replaceAll('.', '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)\\n\\n[^\\n]`));
  });
});

describe('npm run version:bump', () => {
  const bump = (root: string, to: string) => spawnSync(process.execPath, ['scripts/version-bump.mjs', to], { cwd: root, encoding: 'utf8' });

  it('writes the new version in every place, the action\'s default among them, and dates the Unreleased entries', () => {
    const { parent, root } = cloneWorkingTree({ emptyUnreleased: true });
    clones.push(parent);
    // An action.yml as the GitHub action has it: the CLI version pinned, beside an nginx version that must not move.
    const action = [
      'name: nginx-keepalive',
      'inputs:',
      '  nginx-version:',
      '    description: the nginx version',
      "    default: '1.22.1'",
      '  version:',
      '    description: the nginx-keepalive version to install',
      `    default: '${version}'`,
      'runs:',
      '  using: composite',
      '  steps:',
      '    - run: npm install --global "nginx-keepalive@${{ inputs.version }}"',
      '      shell: bash',
      '',
    ].join('\n');
    writeFileSync(path.join(root, 'action.yml'), action);
    const changelogFile = path.join(root, 'CHANGELOG.md');
    const before = readFileSync(changelogFile, 'utf8');
    writeFileSync(changelogFile, before.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- Something.\n'));

    const result = bump(root, '9.8.7');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(places(root).filter((place) => place.version !== '9.8.7')).toEqual([]);
    expect(places(root).filter((place) => place.file === 'action.yml')).toHaveLength(1);
    expect(readFileSync(path.join(root, 'action.yml'), 'utf8')).toBe(action.replace(`default: '${version}'`, "default: '9.8.7'"));
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { version: string; packages: Record<string, { version: string }> };
    expect([lock.version, lock.packages['']?.version]).toEqual(['9.8.7', '9.8.7']);
    const changelog = readFileSync(changelogFile, 'utf8');
    const today = new Date().toISOString().slice(0, 10);
    expect(changelog).toContain(`## [Unreleased]\n\n## [9.8.7] - ${today}\n\n### Fixed\n\n- Something.\n\n## [${version}]`);
    expect(changelog).toContain(`[Unreleased]: https://github.com/nginx-keepalive/nginx-keepalive/compare/v9.8.7...HEAD\n[9.8.7]: https://github.com/nginx-keepalive/nginx-keepalive/compare/v${version}...v9.8.7\n`);
    expect(releaseNotes(changelog, '9.8.7')).toBe(`# nginx-keepalive 9.8.7 (${today})\n\n### Fixed\n\n- Something.\n`);
    // Only what holds the version changed: the diff is the bump.
    const diff = spawnSync('git', ['diff', '--name-only'], { cwd: root, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
    expect(diff).toEqual(expect.arrayContaining(['CHANGELOG.md', 'package-lock.json', 'package.json']));
    expect(diff.filter((file) => !places(root).some((place) => place.file === file))).toEqual([]);
  });

  it('refuses, changing nothing, when Unreleased says nothing or the version is not x.y.z', () => {
    const { parent, root } = cloneWorkingTree({ emptyUnreleased: true });
    clones.push(parent);
    const empty = bump(root, '9.8.7');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('Unreleased section is empty');
    expect(bump(root, 'v9.8').status).toBe(2);
    expect(spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).stdout).toBe('');
    expect(manifestVersion(root)).toBe(version);
  });
});
