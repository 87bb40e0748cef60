// Include globs and directory walks that fan out (issue 10, items 4 and 5): symbolic links that make a tree look
// exponentially large, more directories than a glob may enter, and 150,000 files matched or walked. Each run ends
// with a finding where a bound was reached, and no internal error (a hang fails by the test timeout).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_GLOB_DIRECTORIES } from '../../server/src/util/fs-host.js';
import { DEFAULT_INCLUDE_LIMITS } from '../../server/src/model/expand.js';
import { reported, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

const KEEPALIVE_LESS = 'upstream u { server 127.0.0.1:1; }\n';

describe('include globs over symbolic links', () => {
  it('ten links to "." under seven wildcards: each real directory is entered once, the file is found once', () => {
    const root = tree({
      'nginx.conf': 'events {}\nhttp {\n  include */*/*/*/*/*/*/x.conf;\n}\n',
      'd/x.conf': KEEPALIVE_LESS,
    });
    // 10^6 paths lead to d/x.conf: expanded path by path this ran out of memory after 100 s.
    for (let i = 0; i < 10; i++) symlinkSync('.', path.join(root, `d/l${i}`));
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'd/l0/l0/l0/l0/l0/l0/x.conf', ruleId: 'upstream-keepalive' }),
    ]);
  });

  it(`a glob reaching more than ${MAX_GLOB_DIRECTORIES} directories stops there and says so`, () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include d/*/x.conf;\n}\n' });
    for (let i = 0; i <= MAX_GLOB_DIRECTORIES; i++) mkdirSync(path.join(root, `d/s${i}`), { recursive: true });
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(root, result.stdout)).toEqual([
      {
        file: 'nginx.conf',
        line: 3,
        column: 11,
        ruleId: 'include',
        message: `include "d/*/x.conf" reaches over ${MAX_GLOB_DIRECTORIES} directories: the rest is not followed`,
        detail: 'The glob stopped there; the files below the other directories are not checked.',
      },
    ]);
  });
});

describe('150,000 files', () => {
  it('an include glob matching them stops at the include limit; a walk of their directory checks them all', () => {
    const count = 150_000;
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include conf.d/*.conf;\n}\n' });
    mkdirSync(path.join(root, 'conf.d'));
    const name = (i: number) => `s${String(i).padStart(6, '0')}.conf`;
    for (let i = 0; i < count - 1; i++) writeFileSync(path.join(root, 'conf.d', name(i)), '');
    writeFileSync(path.join(root, 'conf.d', name(count - 1)), KEEPALIVE_LESS);

    // Past `push(...array)`'s limit of arguments: this printed "internal error: RangeError" and lost the report.
    const included = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(included.stderr).toBe('');
    const first = path.join(root, 'conf.d', name(DEFAULT_INCLUDE_LIMITS.maxIncludedFiles));
    expect(reported(root, included.stdout)).toEqual([
      expect.objectContaining({
        file: 'nginx.conf',
        ruleId: 'include',
        message: 'include limit reached: this and later includes are not followed',
        detail: `The first not followed: ${first}.`,
      }),
    ]);

    const walked = runCli(root, ['check', 'conf.d']);
    expect(walked.stderr).toBe('');
    expect(walked.stdout).toContain(name(count - 1));
    expect(walked.stdout).toContain('1 problem');
    expect(walked.status).toBe(1);
  }, 240_000);
});
