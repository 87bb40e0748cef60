// Files nobody should have to lint, in the same run as ordinary ones: each gets a clear message (or none, where it is
// simply not a config) and the ordinary files are still reported.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reported, rulesByFile, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

/** An ordinary config with one warning (upstream-keepalive): the file that must still be reported. */
const ORDINARY = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';

/** A line per byte, each ASCII or one invalid UTF-8 byte, so a byte's column is its index on the line. */
function columnOf(bytes: Buffer, needle: string): { line: number; column: number } {
  const at = bytes.indexOf(needle);
  const before = bytes.subarray(0, at);
  const lineStart = before.lastIndexOf(0x0a) + 1;
  return { line: before.filter((byte) => byte === 0x0a).length + 1, column: at - lineStart + 1 };
}

describe('binary files', () => {
  it('are skipped with a note, do not fail the run, and the other files are still reported', () => {
    const root = tree({
      'a.conf': ORDINARY,
      // `*.nginx` is claimed by its name alone, so it is read and found binary then; a binary `*.conf` is left out by
      // the walk's content sniff instead (--debug says so).
      'logo.nginx': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
      'z.conf': ORDINARY,
    });
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('nginx-keepalive: logo.nginx: skipped (binary file)\n');
    expect(rulesByFile(root, result.stdout)).toEqual({ 'a.conf': ['upstream-keepalive'], 'z.conf': ['upstream-keepalive'] });
    expect(result.status).toBe(1);
  });
});

describe('invalid UTF-8', () => {
  const bytes = Buffer.from(
    '# caf\xe9 na\xefve \xff\xfe\nevents {}\n' +
      'http { proxy_set_header X-Name "caf\xe9\xff"; upstream latin { server 127.0.0.1:3000; }\n' +
      '  server { set $x "\xe9"; location /b { proxy_pass http://127.0.0.1:9; } } }\n',
    'latin1',
  );

  it('is decoded without shifting positions: findings after a bad byte point at their line and column', () => {
    const root = tree({ 'latin1.conf': bytes, 'ok.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--format', 'json']);
    const findings = reported(root, result.stdout).filter((finding) => finding.file === 'latin1.conf');
    expect(findings.map(({ ruleId, line, column }) => ({ ruleId, line, column }))).toEqual([
      { ruleId: 'upstream-keepalive', ...columnOf(bytes, 'latin {') },
      { ruleId: 'proxy-pass-no-upstream', ...columnOf(bytes, 'proxy_pass http://127') },
    ]);
    expect(rulesByFile(root, result.stdout)['ok.conf']).toEqual(['upstream-keepalive']);
  });

  it('is never rewritten by --fix (its bytes would not survive), and says so with exit 2', () => {
    const root = tree({ 'latin1.conf': bytes, 'ok.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--fix']);
    expect(result.stderr).toContain('latin1.conf: not valid UTF-8, not rewritten');
    expect(result.status).toBe(2);
    expect(readFileSync(path.join(root, 'latin1.conf')).equals(bytes)).toBe(true);
    expect(readFileSync(path.join(root, 'ok.conf'), 'utf8')).toContain('keepalive 16;');
  });
});

describe('a byte order mark and CRLF line endings', () => {
  it('survive --fix: the mark stays first, every inserted line ends in CRLF', () => {
    const text = '\uFEFFevents {}\r\nhttp {\r\n    upstream app {\r\n        server 127.0.0.1:3000;\r\n    }\r\n' +
      '    server {\r\n        location / {\r\n            proxy_pass http://app;\r\n        }\r\n    }\r\n}\r\n';
    const root = tree({ 'site.conf': text });
    const result = runCli(root, ['check', 'site.conf', '--fix']);
    expect(result.status).toBe(0);
    const fixed = readFileSync(path.join(root, 'site.conf'));
    expect([...fixed.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const fixedText = fixed.toString('utf8');
    expect(fixedText.split('\r\n').length).toBeGreaterThan(text.split('\r\n').length);
    expect(fixedText.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(fixedText.indexOf('\uFEFF', 1)).toBe(-1);
  });
});

describe('unterminated constructs at the end of a file', () => {
  const UNCLOSED_STRING = (line: number) =>
    `unexpected end of file, expecting ";" or "}" (the string opened on line ${line} is not closed)`;

  it('are syntax errors where nginx reports them (a string at the end of the file) or at the opening action, and the other files are still reported', () => {
    const root = tree({
      'quote.conf': 'http { server { return 200 "abc',
      'single.conf': "http {\n  server {\n    return 200 'abc",
      'app/nginx.conf.sigil': 'server {\n  listen 80;\n  location / { proxy_pass http://{{ $.APP ',
      'comment.sigil': 'server { listen 80; {{/* a comment that never ends',
      'z.conf': ORDINARY,
    });
    const files = ['quote.conf', 'single.conf', 'app/nginx.conf.sigil', 'comment.sigil', 'z.conf'];
    const result = runCli(root, ['check', ...files, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(reported(root, result.stdout).map(({ file, line, column, message }) => ({ file, line, column, message }))).toEqual([
      { file: 'app/nginx.conf.sigil', line: 3, column: 34, message: 'unterminated template action' },
      { file: 'comment.sigil', line: 1, column: 21, message: 'unclosed template comment' },
      { file: 'quote.conf', line: 1, column: 32, message: UNCLOSED_STRING(1) },
      { file: 'single.conf', line: 3, column: 20, message: UNCLOSED_STRING(3) },
      expect.objectContaining({ file: 'z.conf', message: expect.stringContaining('no keepalive') }),
    ]);
  });
});

describe('file size limit', () => {
  const FIFTY_MB = 50 * 1024 * 1024;

  it('refuses a 50 MB file by default with the limit in the message (exit 2), and checks the rest', () => {
    const root = tree({ 'a.conf': ORDINARY });
        // A generated blocklist: nginx by its first lines (a `*.conf` is sniffed whatever its size), refused by its size.
    writeFileSync(path.join(root, 'huge.conf'), Buffer.alloc(FIFTY_MB, 'deny 192.0.2.1;\n'));
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe(
      'nginx-keepalive: huge.conf: not checked: 50 MB is over the 10 MB file size limit ' +
        '(raise it with --max-file-size or "maxFileSize" in .nginx-keepalive.json)\n',
    );
    expect(rulesByFile(root, result.stdout)).toEqual({ 'a.conf': ['upstream-keepalive'] });
    expect(result.status).toBe(2);
  });

  it('does not read an included file over the limit either', () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include huge.inc;\n}\n' });
    writeFileSync(path.join(root, 'huge.inc'), Buffer.alloc(FIFTY_MB, '# generated padding line\n'));
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'nginx.conf', line: 3, ruleId: 'include', message: expect.stringContaining('cannot be read') }),
    ]);
  });

  it('is set by --max-file-size, or by maxFileSize in the settings file (the flag wins)', () => {
    const root = tree({ 'a.conf': ORDINARY, 'padded.conf': `${'#'.repeat(3000)}\n${ORDINARY}` });
    const flag = runCli(root, ['check', '.', '--max-file-size', '2K', '--format', 'json']);
    expect(flag.stderr).toMatch(/^nginx-keepalive: padded\.conf: not checked: 3\.\d KB is over the 2 KB file size limit/);
    expect(Object.keys(rulesByFile(root, flag.stdout))).toEqual(['a.conf']);

    writeFileSync(path.join(root, '.nginx-keepalive.json'), JSON.stringify({ maxFileSize: 2048 }));
    expect(runCli(root, ['check', '.']).stderr).toContain('padded.conf: not checked');
    writeFileSync(path.join(root, '.nginx-keepalive.json'), JSON.stringify({ maxFileSize: '1M' }));
    const raised = runCli(root, ['check', '.', '--format', 'json']);
    expect(raised.stderr).toBe('');
    expect(Object.keys(rulesByFile(root, raised.stdout))).toEqual(['a.conf', 'padded.conf']);
    expect(runCli(root, ['check', '.', '--max-file-size', '1K']).stderr).toContain('padded.conf: not checked');
  });

  it('rejects a limit that is not a size', () => {
    const root = tree({ 'a.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--max-file-size', '10 parsecs']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/invalid --max-file-size "10 parsecs"/);
    writeFileSync(path.join(root, '.nginx-keepalive.json'), JSON.stringify({ maxFileSize: 0 }));
    expect(runCli(root, ['check', '.']).stderr).toMatch(/"maxFileSize": expected a size/);
  });
});

describe('an include naming a FIFO', () => {
  it('is not read (a read would block forever): the include is reported and the run ends', () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include pipe.conf;\n}\n', 'z.conf': ORDINARY });
    const made = spawnSync('mkfifo', [path.join(root, 'pipe.conf')]);
    expect(made.status).toBe(0);
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'nginx.conf', line: 3, ruleId: 'include', message: expect.stringContaining('cannot be read') }),
      expect.objectContaining({ file: 'z.conf', ruleId: 'upstream-keepalive' }),
    ]);
  });
});
