// Includes and paths that go in circles or fan out: cycles, self-includes, symbolic link loops, a directory where a
// file is expected, globs matching thousands of files. Each is reported (or bounded) and the run ends.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INCLUDE_LIMITS } from '../../server/src/model/expand.js';
import { reported, rulesByFile, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

const ORDINARY = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';

describe('include cycles', () => {
  it('a file including itself, and two files including each other, are reported once each', () => {
    const root = tree({
      'self/nginx.conf': 'events {}\nhttp {\n  include nginx.conf;\n}\n',
      'pair/nginx.conf': 'events {}\nhttp {\n  include a.inc;\n}\n',
      'pair/a.inc': 'include b.inc;\n',
      'pair/b.inc': 'include a.inc;\n',
      'z.conf': ORDINARY,
    });
    const result = runCli(root, ['check', 'self/nginx.conf', 'pair/nginx.conf', 'z.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({
        file: 'pair/b.inc',
        line: 1,
        ruleId: 'include',
        message: 'include cycle: a.inc is already being included; remove this include',
        detail: `The file: ${path.join(root, 'pair/a.inc')}.`,
      }),
      expect.objectContaining({
        file: 'self/nginx.conf',
        line: 3,
        ruleId: 'include',
        message: 'include cycle: nginx.conf includes itself; remove this include',
        detail: `The file: ${path.join(root, 'self/nginx.conf')}.`,
      }),
      expect.objectContaining({ file: 'z.conf', ruleId: 'upstream-keepalive' }),
    ]);
  });
});

describe('symbolic link loops', () => {
  it('a directory linking to its parent is walked once; a link to itself is skipped; the rest is checked', () => {
    const root = tree({ 'site/a.conf': ORDINARY, 'site/sub/.keep': '' });
    symlinkSync('..', path.join(root, 'site/sub/up'));
    symlinkSync('loop.conf', path.join(root, 'site/loop.conf'));
    const result = runCli(root, ['check', 'site', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(rulesByFile(root, result.stdout)).toEqual({ 'site/a.conf': ['upstream-keepalive'] });
  });

  it('a link to the parent of the checked directory leads outside it: reported, not followed', () => {
    const root = tree({ 'site/a.conf': ORDINARY, 'b.conf': ORDINARY });
    symlinkSync('..', path.join(root, 'site/up'));
    const result = runCli(root, ['check', 'site', '--format', 'json']);
    expect(result.stderr).toBe('nginx-keepalive: site/up: a symbolic link leading outside the checked paths, not followed\n');
    expect(rulesByFile(root, result.stdout)).toEqual({ 'site/a.conf': ['upstream-keepalive'] });
  });

  it('named on the command line, a looping link is exit 2 with its path; included, it is a finding', () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include loop.conf;\n}\n', 'z.conf': ORDINARY });
    symlinkSync('loop.conf', path.join(root, 'loop.conf'));
    const named = runCli(root, ['check', 'loop.conf', 'z.conf', '--format', 'json']);
    expect(named.stderr).toBe('nginx-keepalive: loop.conf: too many levels of symbolic links\n');
    expect(named.status).toBe(2);
    expect(rulesByFile(root, named.stdout)).toEqual({ 'z.conf': ['upstream-keepalive'] });
    const included = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(reported(root, included.stdout)).toEqual([
      expect.objectContaining({ file: 'nginx.conf', line: 3, ruleId: 'include' }),
    ]);
  });
});

describe('a directory where a file is expected', () => {
  it('an include naming a directory is reported as unreadable, and the other includes are followed', () => {
    const root = tree({
      'nginx.conf': 'events {}\nhttp {\n  include conf.d;\n  include site.inc;\n}\n',
      'conf.d/x.conf': 'server { listen 80; }\n',
      'site.inc': 'upstream app { server 127.0.0.1:3000; }\nserver { location / { proxy_pass http://app; } }\n',
    });
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'nginx.conf', line: 3, ruleId: 'include', message: expect.stringContaining('cannot be read') }),
      expect.objectContaining({ file: 'site.inc', ruleId: 'upstream-keepalive' }),
    ]);
  });
});

describe('globs matching thousands of files', () => {
  it(`an include glob beyond ${DEFAULT_INCLUDE_LIMITS.maxIncludedFiles} files stops at the limit and says so`, () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  server {\n    include conf.d/*.conf;\n  }\n}\n' });
    mkdirSync(path.join(root, 'conf.d'));
    const count = DEFAULT_INCLUDE_LIMITS.maxIncludedFiles + 50;
    for (let i = 0; i < count; i++) {
      writeFileSync(path.join(root, `conf.d/s${String(i).padStart(5, '0')}.conf`), `location /x${i} { return 200; }\n`);
    }
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    const first = `s${String(DEFAULT_INCLUDE_LIMITS.maxIncludedFiles).padStart(5, '0')}.conf`;
    expect(reported(root, result.stdout)).toEqual([
      {
        file: 'nginx.conf',
        line: 4,
        column: 13,
        ruleId: 'include',
        message: 'include limit reached: this and later includes are not followed',
        detail: `The first not followed: ${path.join(root, 'conf.d', first)}.`,
      },
    ]);
  });

  it('a command-line glob matching 3,000 files checks every one of them', () => {
    const root = tree({});
    for (let i = 0; i < 3000; i++) {
      const directory = path.join(root, `sites/d${i % 30}`);
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, `s${i}.conf`), `upstream u${i} { server 127.0.0.1:${1000 + i}; }\nserver { location / { proxy_pass http://u${i}; } }\n`);
    }
    const result = runCli(root, ['check', 'sites/**/*.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    const byFile = rulesByFile(root, result.stdout);
    expect(Object.keys(byFile)).toHaveLength(3000);
    expect(Object.values(byFile).every((ids) => ids.join() === 'upstream-keepalive')).toBe(true);
  });
});
