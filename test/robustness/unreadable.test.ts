// Files and directories the checker may not read. The tests run as root, and root reads a chmod 000 file anyway, so
// the CLI runs as `nobody` (setpriv, every group dropped) and permissions really deny; a dangling symbolic link is a
// second, permission-free way to name something unreadable. Exit 2 names the path; every other file is reported.
import { chmodSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openToOthers, reported, rulesByFile, runCli, runCliUnprivileged, useTempTrees } from './support.js';

const tree = useTempTrees();

const ORDINARY = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';

describe('without read permission (as an unprivileged user)', () => {
  it('an unreadable file is exit 2 with its path; the other files are reported', () => {
    const root = tree({ 'a.conf': ORDINARY, 'secret.conf': ORDINARY, 'z.conf': ORDINARY });
    openToOthers(root);
    chmodSync(path.join(root, 'secret.conf'), 0o000);
    const result = runCliUnprivileged(root, ['check', '.', '--format', 'json']);
    expect(result.uid).not.toBe(0);
    expect(result.stderr).toBe('nginx-keepalive: secret.conf: permission denied\n');
    expect(result.status).toBe(2);
    expect(rulesByFile(root, result.stdout)).toEqual({ 'a.conf': ['upstream-keepalive'], 'z.conf': ['upstream-keepalive'] });
  });

  it('an unreadable directory is exit 2 with its path; the other directories are walked', () => {
    const root = tree({ 'private/x.conf': ORDINARY, 'public/y.conf': ORDINARY });
    openToOthers(root);
    chmodSync(path.join(root, 'private'), 0o000);
    const result = runCliUnprivileged(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('nginx-keepalive: private: permission denied\n');
    expect(result.status).toBe(2);
    expect(rulesByFile(root, result.stdout)).toEqual({ 'public/y.conf': ['upstream-keepalive'] });
  });

  it('an unreadable included file is a finding at the include; the includer is still checked', () => {
    const root = tree({
      'nginx.conf': 'events {}\nhttp {\n  include locked.inc;\n  include open.inc;\n}\n',
      'locked.inc': 'server { listen 80; }\n',
      'open.inc': 'upstream app { server 127.0.0.1:3000; }\nserver { location / { proxy_pass http://app; } }\n',
    });
    openToOthers(root);
    chmodSync(path.join(root, 'locked.inc'), 0o000);
    const result = runCliUnprivileged(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'nginx.conf', line: 3, ruleId: 'include', message: expect.stringContaining('cannot be read') }),
      expect.objectContaining({ file: 'open.inc', ruleId: 'upstream-keepalive' }),
    ]);
  });

  it('--fix in a directory the user may not write leaves the file as it was and says why (exit 2)', () => {
    const root = tree({ 'ro/site.conf': ORDINARY, 'rw/site.conf': ORDINARY });
    openToOthers(root);
    chmodSync(path.join(root, 'rw'), 0o777);
    chmodSync(path.join(root, 'rw/site.conf'), 0o666);
    const result = runCliUnprivileged(root, ['check', '.', '--fix']);
    expect(result.stderr).toMatch(/^nginx-keepalive: ro\/site\.conf: cannot write: permission denied\n/);
    expect(result.status).toBe(2);
    expect(runCli(root, ['check', 'ro/site.conf']).status).toBe(1);
    expect(runCli(root, ['check', 'rw/site.conf']).status).toBe(0);
  });
});

describe('dangling symbolic links', () => {
  it('named on the command line: exit 2 with the path; met while walking: not a config, skipped', () => {
    const root = tree({ 'a.conf': ORDINARY });
    symlinkSync('gone.conf', path.join(root, 'dangling.conf'));
    const named = runCli(root, ['check', 'dangling.conf', 'a.conf', '--format', 'json']);
    expect(named.stderr).toBe('nginx-keepalive: dangling.conf: no such file or directory\n');
    expect(named.status).toBe(2);
    expect(rulesByFile(root, named.stdout)).toEqual({ 'a.conf': ['upstream-keepalive'] });
    const walked = runCli(root, ['check', '.', '--format', 'json']);
    expect(walked.stderr).toBe('');
    expect(rulesByFile(root, walked.stdout)).toEqual({ 'a.conf': ['upstream-keepalive'] });
  });
});
