// `nginx -T | nginx-keepalive check -`: a dump made by the REAL nginx (Debian's) of a multi-file configuration gives
// the same findings, at the same absolute paths and lines, in every format, as checking the files themselves; a
// dump saved to a file is checked by name alike; --fix-dry-run gives the same patch; --fix refuses.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrefix, requireNginx, type NginxPrefix } from '../support/nginx.js';
import { runCli } from './helpers.js';

let prefix: NginxPrefix;
/** Somewhere else: run from there, every path is printed absolute. */
let elsewhere: string;
let dump: string;
const files: Record<string, string> = {};

/** nginx.conf including conf.d/*.conf (two sites), one of which includes a snippet by a relative path. */
function writeConfiguration(dir: string, httpTempPaths: string): string {
  const texts: Record<string, string> = {
    'nginx.conf': [
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log;`,
      'events {}',
      'http {',
      `    ${httpTempPaths}`,
      '    include conf.d/*.conf;',
      '}',
      '',
    ].join('\n'),
    'conf.d/a.conf': [
      'upstream app {',
      '    server 127.0.0.1:8080;',
      '}',
      'server {',
      '    listen 127.0.0.1:8081;',
      '    location / { proxy_pass http://app; }',
      '}',
      '',
    ].join('\n'),
    'conf.d/b.conf': [
      'upstream api { server 127.0.0.1:9090; keepalive 8; }',
      'server {',
      '    listen 127.0.0.1:8082;',
      '    location /api/ {',
      '        include snippets/proxy.conf;',
      '        proxy_pass http://api;',
      '    }',
      '    location /plain/ { proxy_pass http://api; }',
      '}',
      '',
    ].join('\n'),
    // No final newline: nginx's dump adds its own, which must not end up in the file.
    'snippets/proxy.conf': 'proxy_http_version 1.1;\nproxy_set_header Connection $http_connection;',
  };
  for (const [relative, text] of Object.entries(texts)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
    files[relative] = text;
  }
  return path.join(dir, 'nginx.conf');
}

beforeAll(() => {
  prefix = makePrefix();
  elsewhere = mkdtempSync(path.join(os.tmpdir(), 'nk-dump-cwd-'));
  const conf = writeConfiguration(prefix.dir, prefix.httpTempPaths);
  const result = spawnSync(requireNginx(), ['-T', '-p', `${prefix.dir}/`, '-e', path.join(prefix.dir, 'logs', 'startup.log'), '-c', conf], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`nginx -T failed:\n${result.stderr}`);
  expect(result.stderr).toContain('syntax is ok');
  dump = result.stdout;
});

afterAll(() => {
  prefix?.remove();
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

type JsonReport = { filePath: string; messages: { ruleId: string; line: number; column: number; message: string }[] }[];

/** Every finding as `path:line:column rule message`, sorted: the report less the clean files' empty entries. */
function findingsOf(json: string): string[] {
  return (JSON.parse(json) as JsonReport)
    .flatMap((report) => report.messages.map((m) => `${report.filePath}:${m.line}:${m.column} ${m.ruleId} ${m.message}`))
    .sort();
}

describe('an nginx -T dump', () => {
  it('is the real nginx output of every file, the main configuration first', () => {
    const markers = dump.split('\n').filter((line) => line.startsWith('# configuration file '));
    expect(markers).toEqual(
      ['nginx.conf', 'conf.d/a.conf', 'conf.d/b.conf', 'snippets/proxy.conf'].map((f) => `# configuration file ${path.join(prefix.dir, f)}:`),
    );
  });

  it('piped to check - gives the findings of checking the files themselves, paths and lines included', () => {
    const fromFiles = runCli(elsewhere, ['check', '--format', 'json', path.join(prefix.dir, 'nginx.conf')]);
    const fromDump = runCli(elsewhere, ['check', '--format', 'json', '-'], {}, dump);
    const expected = findingsOf(fromFiles.stdout);
    // Findings in each of the three included files, none in the main one.
    for (const file of ['conf.d/a.conf', 'conf.d/b.conf', 'snippets/proxy.conf']) {
      expect(expected.some((finding) => finding.startsWith(`${path.join(prefix.dir, file)}:`)), file).toBe(true);
    }
    expect(findingsOf(fromDump.stdout)).toEqual(expected);
    expect(fromDump.status).toBe(fromFiles.status);
    expect(fromDump.status).toBe(1);
  });

  it('names the original absolute paths and lines in every format, exactly as checking the files does', () => {
    for (const format of ['stylish', 'sarif', 'github', 'gitlab', 'rdjson']) {
      const fromFiles = runCli(elsewhere, ['check', '--format', format, path.join(prefix.dir, 'nginx.conf')]);
      const fromDump = runCli(elsewhere, ['check', '--format', format, '-'], {}, dump);
      expect(fromDump.stdout, format).toBe(fromFiles.stdout);
      expect(fromDump.stdout, format).toContain(path.join(prefix.dir, 'conf.d/a.conf'));
    }
    const github = runCli(elsewhere, ['check', '--format', 'github', '-'], {}, dump).stdout;
    expect(github).toContain(`file=${path.join(prefix.dir, 'conf.d/a.conf')},line=1,`);
  });

  it('saved to a file and checked by name (or 2>&1 included) gives the same findings', () => {
    const saved = path.join(elsewhere, 'server.dump');
    writeFileSync(saved, dump);
    const withStderr = path.join(elsewhere, 'with-stderr.txt');
    writeFileSync(withStderr, `nginx: the configuration file ${prefix.dir}/nginx.conf syntax is ok\n${dump}`);
    const fromFiles = runCli(elsewhere, ['check', '--format', 'json', path.join(prefix.dir, 'nginx.conf')]);
    for (const file of [saved, withStderr]) {
      const fromSaved = runCli(elsewhere, ['check', '--format', 'json', file]);
      expect(findingsOf(fromSaved.stdout), file).toEqual(findingsOf(fromFiles.stdout));
      // The dump's files are reported, not the dump itself.
      expect((JSON.parse(fromSaved.stdout) as JsonReport).map((r) => r.filePath)).not.toContain(file);
    }
  });

  it('found by a directory walk, is known by its content; two dumps of one server report each finding once', () => {
    const walked = mkdtempSync(path.join(os.tmpdir(), 'nk-dump-walk-'));
    try {
      writeFileSync(path.join(walked, 'server.dump'), dump);
      writeFileSync(path.join(walked, 'yesterday.dump'), dump);
      const fromFiles = runCli(elsewhere, ['check', '--format', 'json', path.join(prefix.dir, 'nginx.conf')]);
      const fromWalk = runCli(elsewhere, ['check', '--format', 'json', walked]);
      expect(findingsOf(fromWalk.stdout)).toEqual(findingsOf(fromFiles.stdout));
    } finally {
      rmSync(walked, { recursive: true, force: true });
    }
  });

  it('--fix-dry-run prints the patch fixing the files themselves would, against their paths', () => {
    const fromFiles = runCli(prefix.dir, ['check', '--fix-dry-run', 'nginx.conf']);
    const fromDump = runCli(prefix.dir, ['check', '--fix-dry-run', '-'], {}, dump);
    expect(fromFiles.stdout).toContain('--- a/conf.d/a.conf\n+++ b/conf.d/a.conf\n');
    expect(fromDump.stdout).toBe(fromFiles.stdout);
    expect(fromDump.stderr).toContain('--fix-dry-run: ');
    // From elsewhere, the paths are absolute (the server's).
    const absolute = runCli(elsewhere, ['check', '--fix-dry-run', '-'], {}, dump);
    expect(absolute.stdout).toContain(`--- ${path.join(prefix.dir, 'conf.d/a.conf')}\n`);
  });

  it('--fix refuses with one line and exit 2, writing nothing', () => {
    for (const [args, input] of [
      [['check', '--fix', '-'], dump],
      [['check', '--fix', path.join(elsewhere, 'server.dump')], undefined],
    ] as const) {
      if (input === undefined) writeFileSync(path.join(elsewhere, 'server.dump'), dump);
      const result = runCli(elsewhere, [...args], {}, input);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/an nginx -T dump; --fix has nothing to write/);
    }
    for (const [relative, text] of Object.entries(files)) expect(readFileSync(path.join(prefix.dir, relative), 'utf8')).toBe(text);
    expect(readFileSync(path.join(elsewhere, 'server.dump'), 'utf8')).toBe(dump);
  });
});
