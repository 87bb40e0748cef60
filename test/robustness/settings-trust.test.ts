// A repository's own `.nginx-keepalive.json` cannot widen what is read (issue 10, item 11): it comes with the tree
// being checked, so a pull request can write it. Its pathMap may only map into the checked paths; mapping elsewhere
// takes --path-map. And code frames never print a file outside the checked paths and the --path-map targets.
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStylish } from '../../server/src/cli/format-stylish.js';
import { groupByFile } from '../../server/src/cli/report.js';
import { findingAt, runCli } from '../cli/helpers.js';
import { reported, useTempTrees } from './support.js';

const tree = useTempTrees();

const SECRET = 'nginx-keepalive-test-secret-5f1c';
const FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab', 'rdjson'];

describe("the issue's repro: a settings file mapping /etc and /proc/self", () => {
  const files = {
    '.nginx-keepalive.json': JSON.stringify({ pathMap: { '/etc': '/etc', '/proc/self': '/proc/self' } }),
    'nginx.conf': 'events {}\nhttp {\n  include /etc/passwd;\n  include /proc/self/environ;\n}\n',
  };

  for (const format of FORMATS) {
    it(`is refused, exit 2, and nothing of /etc/passwd or the environment is printed (${format})`, () => {
      const root = tree(files);
      const result = runCli(root, ['check', '--format', format, '.'], { NGINX_KEEPALIVE_SECRET: SECRET });
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n').filter((line) => line.includes('"pathMap.'))).toHaveLength(2);
      for (const output of [result.stdout, result.stderr]) {
        expect(output).not.toContain(SECRET);
        expect(output).not.toMatch(/root:[^:\n]*:0:0:/);
      }
    });
  }
});

describe('a settings file found with the checked tree', () => {
  // The settings file sits above the checked directory and maps an include prefix to a directory beside it.
  const files = {
    '.nginx-keepalive.json': JSON.stringify({ pathMap: { '/etc/nginx': 'shared' } }),
    'checked/nginx.conf': 'events {}\nhttp {\n  include /etc/nginx/app.conf;\n}\n',
    'shared/app.conf': `server { listen 80 } # ${SECRET}\n`,
  };

  it('may not map outside the checked paths: refused with exit 2, the file is not read', () => {
    const root = tree(files);
    const result = runCli(root, ['check', 'checked']);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'nginx-keepalive: .nginx-keepalive.json: "pathMap./etc/nginx": shared is outside the checked paths, and a ' +
        'settings file may only map into them (to read it, pass --path-map /etc/nginx=<dir>)\n',
    });
  });

  it('may map into them: checking the directory that holds the target', () => {
    const root = tree(files);
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('');
    // The include is followed (no `include` finding says it was not), and the mapped file is checked.
    expect(reported(root, result.stdout).map(({ file, ruleId }) => `${file} ${ruleId}`)).toEqual(['shared/app.conf syntax']);
  });

  it('is overridden by --path-map, which may map anywhere, and its file is then shown with code frames', () => {
    const root = tree(files);
    const result = runCli(root, ['check', 'checked', '--path-map', '/etc/nginx=shared']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('shared/app.conf\n  1:20  error');
    expect(result.stdout).toContain(SECRET);
  });

  it('may not map through a link inside the checked paths that leads outside', () => {
    const root = tree({ ...files, '.nginx-keepalive.json': JSON.stringify({ pathMap: { '/etc/nginx': 'checked/link' } }) });
    symlinkSync('../shared', path.join(root, 'checked/link'));
    const result = runCli(root, ['check', 'checked']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"pathMap./etc/nginx": checked/link is outside the checked paths');
    expect(result.stdout).not.toContain(SECRET);
  });

  it('is held to the same rule when named with --config', () => {
    const root = tree({ ...files, 'ci/settings.json': JSON.stringify({ pathMap: { '/etc/nginx': '/etc' } }) });
    const result = runCli(root, ['check', 'checked', '--config', 'ci/settings.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('ci/settings.json: "pathMap./etc/nginx": /etc is outside the checked paths');
  });
});

describe('code frames', () => {
  const text = `server { listen 80 } # ${SECRET}\n`;
  const finding = (file: string) => findingAt(file, text, 'listen 80');

  it('never show a file that may not be shown, though a finding points into it', () => {
    const root = tree({ 'outside/secret.conf': text });
    const file = path.join(root, 'outside/secret.conf');
    for (const options of [{}, { mayShow: () => false }]) {
      const output = formatStylish(groupByFile([], [finding(file)], root, options), { cwd: root, color: false });
      expect(output).toContain('outside/secret.conf\n  1:10  warning');
      expect(output).not.toContain(SECRET);
    }
  });

  it('show a file that may be shown, read from disk', () => {
    const root = tree({ 'mapped/site.conf': text });
    const file = path.join(root, 'mapped/site.conf');
    const reports = groupByFile([], [finding(file)], root, { mayShow: (candidate) => candidate === file });
    expect(formatStylish(reports, { cwd: root, color: false })).toContain(`1 | ${text.trimEnd()}`);
  });
});
