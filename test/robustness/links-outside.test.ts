// Symbolic links committed into a checked tree that lead outside it (issue 10, items 12 and 13). The directory walk
// reports them and does not follow them; include globs do not list, stat or test anything through them. Checked
// under strace: not one system call names a path inside the directory the links lead to.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, reported, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

const UPSTREAM = 'upstream leaked { server 10.9.9.9:1; }\nserver { location / { proxy_pass http://leaked; } }\n';
const LOCAL = 'upstream app { server 127.0.0.1:3000; }\nserver { location / { proxy_pass http://app; } }\n';

/**
 * checked/ holds the config; outside/ (its sibling) what the links lead to. `etclink` leads to the real /etc, the
 * shape of the report; `outlink` and `conf.d/evil` to outside/, which has a `shadow` and a `none-1.conf` to find.
 */
function linkedTree(): string {
  const root = tree({
    'outside/shadow': UPSTREAM,
    'outside/none-1.conf': UPSTREAM,
    'outside/secret.conf': UPSTREAM,
    'checked/nginx.conf': [
      'events {}',
      'http {',
      '  include conf.d/*/none-*.conf;',
      '  include */shadow;',
      '  include conf.d/*.conf;',
      '}',
      '',
    ].join('\n'),
    'checked/conf.d/app.conf': LOCAL,
    'checked/sites-available/site.conf': LOCAL.replace(/app/g, 'site'),
  });
  symlinkSync('../../outside', path.join(root, 'checked/conf.d/evil'));
  symlinkSync('/etc', path.join(root, 'checked/etclink'));
  symlinkSync(path.join(root, 'outside'), path.join(root, 'checked/outlink'));
  symlinkSync('../outside/secret.conf', path.join(root, 'checked/secret.conf'));
  // Inside the checked directory: followed as always (the Debian layout).
  mkdirSync(path.join(root, 'checked/sites-enabled'));
  symlinkSync('../sites-available/site.conf', path.join(root, 'checked/sites-enabled/site.conf'));
  return root;
}

/** Every system call that takes a path, and every directory read, of one CLI run. */
function strace(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string; calls: string[] } {
  const log = path.join(cwd, 'strace.log');
  const traced = ['-f', '-qq', '-e', 'trace=%file,getdents64', '-o', log, process.execPath, CLI, ...args];
  const result = spawnSync('strace', traced, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`strace is needed for this test (apt-get install strace): ${result.error.message}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls: readFileSync(log, 'utf8').split('\n') };
}

const NOTE = (link: string) => `nginx-keepalive: ${link}: a symbolic link leading outside the checked paths, not followed`;

describe('links leading outside the checked directory', () => {
  it('are reported by the walk and never followed; links inside still are (CLI)', () => {
    const root = linkedTree();
    const result = runCli(path.join(root, 'checked'), ['check', '.', '--format', 'json']);
    expect(result.stderr.split('\n').filter(Boolean).sort()).toEqual(
      ['conf.d/evil', 'etclink', 'outlink', 'secret.conf'].map(NOTE).sort(),
    );
    const findings = reported(path.join(root, 'checked'), result.stdout);
    expect(result.stdout).not.toContain('leaked');
    // sites-enabled/site.conf -> ../sites-available/site.conf is inside: checked (once, as the same real file).
    expect(findings.filter((f) => f.ruleId === 'upstream-keepalive').map((f) => f.file).sort()).toEqual([
      'conf.d/app.conf',
      'sites-available/site.conf',
    ]);
  });

  it('are not globbed through: no system call names a path inside outside/, nor /etc/shadow', () => {
    const root = linkedTree();
    const checked = path.join(root, 'checked');
    // nginx.conf alone: the walk is not involved, only the include globs.
    const { status, stdout, calls } = strace(checked, ['check', 'nginx.conf', '--format', 'json']);
    expect(status).toBe(1);
    // The positive control: the trace does see the checker's reads.
    expect(calls.some((call) => call.includes(path.join(checked, 'conf.d/app.conf')))).toBe(true);
    expect(calls.filter((call) => call.includes(`${path.join(root, 'outside')}/`))).toEqual([]);
    expect(calls.filter((call) => call.includes('/etc/shadow'))).toEqual([]);
    // /etc is never opened as a directory to be listed.
    expect(calls.filter((call) => call.includes('"/etc"') && call.includes('O_DIRECTORY'))).toEqual([]);

    const includes = reported(checked, stdout).filter((finding) => finding.ruleId === 'include');
    // The links are named; whether outside/shadow or /etc/shadow exists is not told.
    expect(includes.map((f) => [f.line, f.message, f.detail])).toEqual([
      [3, 'include "conf.d/*/none-*.conf" matches a link outside the checked paths: not followed', `The link: ${path.join(checked, 'conf.d/evil')}.`],
      [4, 'include "*/shadow" matches a link outside the checked paths: not followed', `The link: ${path.join(checked, 'etclink')}.`],
    ]);
    expect(stdout).not.toContain('leaked');
  });
});
