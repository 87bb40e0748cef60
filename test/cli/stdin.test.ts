// `check -`: one file from stdin (server/src/cli/stdin.ts), named by --stdin-filename, and `--fix` printing the fixed
// text on stdout with the report on stderr (stdin-fix.ts). Runs the built CLI with the text piped in.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** Single-file fixtures with a fix golden and no include: what --fix makes of them does not depend on other files. */
const FIX_FIXTURES = [
  'upstream-keepalive/invalid-balancer-last.conf',
  'proxy-http-version/invalid-default.conf',
  'connection-header-missing/invalid-no-headers.conf',
  'keepalive-order/invalid-before-ip-hash.conf',
];

const UPSTREAM_SITE = [
  'upstream app { server 127.0.0.1:8080; }',
  'server {',
  '    listen 80;',
  '    location / { include snippets/proxy.conf; proxy_pass http://app; }',
  '}',
  '',
].join('\n');

describe('check - (stdin)', () => {
  it('reports the piped file as <stdin>, as checking the same text by name does', () => {
    const root = tree({ 'site.conf': UPSTREAM_SITE, 'snippets/proxy.conf': 'proxy_set_header Host $host;\n' });
    const byName = runCli(root, ['check', 'site.conf']);
    const piped = runCli(root, ['check', '-'], {}, UPSTREAM_SITE);
    expect(piped.status).toBe(byName.status);
    expect(piped.status).toBe(1);
    expect(piped.stdout).toContain('<stdin>\n');
    expect(piped.stdout).toContain('upstream has no keepalive');
    // Without --stdin-filename, includes resolve against the working directory, which is the read root.
    expect(piped.stdout).not.toContain('include file');
    expect(piped.stdout.replace('<stdin>', 'site.conf')).toBe(byName.stdout);
  });

  it('gives the same JSON report under --stdin-filename as checking the fixture file itself', () => {
    for (const fixture of FIX_FIXTURES.slice(0, 2)) {
      const file = path.join(FIXTURES, fixture);
      const byName = runCli(FIXTURES, ['check', '--format', 'json', fixture]);
      const piped = runCli(FIXTURES, ['check', '--format', 'json', '-', '--stdin-filename', fixture], {}, readFileSync(file));
      expect(JSON.parse(piped.stdout)).toEqual(JSON.parse(byName.stdout));
      expect(JSON.parse(piped.stdout)[0].filePath).toBe(file);
      expect(piped.status).toBe(byName.status);
    }
  });

  it('--stdin-filename decides where includes are looked for, and which settings file applies', () => {
    const root = tree({
      'deploy/site.conf': '# on disk: not what is checked\n',
      'deploy/snippets/proxy.conf': 'proxy_set_header Connection $http_connection;\n',
      'other/.nginx-keepalive.json': JSON.stringify({ rules: { 'upstream-keepalive': 'off' } }),
    });
    const named = runCli(root, ['check', '--format', 'json', '-', '--stdin-filename', 'deploy/site.conf'], {}, UPSTREAM_SITE);
    const [report, ...included] = JSON.parse(named.stdout) as { filePath: string; messages: { ruleId: string }[] }[];
    // The name, not the disk's text: the finding is in the piped text, reported under the given path.
    expect(report!.filePath).toBe(path.join(root, 'deploy/site.conf'));
    expect(report!.messages.map((m) => m.ruleId)).toContain('upstream-keepalive');
    // The include was found next to the named file and read: its finding is reported there.
    expect(report!.messages.map((m) => m.ruleId)).not.toContain('include');
    expect(included.map((entry) => entry.filePath)).toEqual([path.join(root, 'deploy/snippets/proxy.conf')]);

    // Unnamed, the working directory is where includes are looked for: not found there.
    const unnamed = runCli(root, ['check', '--format', 'json', '-'], {}, UPSTREAM_SITE);
    expect(JSON.parse(unnamed.stdout)[0].messages.map((m: { ruleId: string }) => m.ruleId)).toContain('include');

    // The settings file nearest to the name applies (here it turns the rule off).
    const otherDir = runCli(root, ['check', '--format', 'json', '-', '--stdin-filename', 'other/site.conf'], {}, UPSTREAM_SITE);
    expect(JSON.parse(otherDir.stdout)[0].messages.map((m: { ruleId: string }) => m.ruleId)).not.toContain('upstream-keepalive');
  });

  it('--fix prints the fixed text on stdout, the report on stderr, and writes nothing', () => {
    expect(FIX_FIXTURES.length).toBeGreaterThan(1);
    for (const fixture of FIX_FIXTURES) {
      const input = readFileSync(path.join(FIXTURES, fixture), 'utf8');
      const golden = readFileSync(path.join(FIXTURES, fixture.replace(/\.conf$/, '.fixed.conf')), 'utf8');
      // Named after a copy, so the disk's text is there, and must stay as it is.
      const root = tree({ 'site.conf': '' });
      copyFileSync(path.join(FIXTURES, fixture), path.join(root, 'site.conf'));
      const result = runCli(root, ['check', '-', '--fix', '--stdin-filename', 'site.conf'], {}, input);
      expect(result.stdout, fixture).toBe(golden);
      expect(readFileSync(path.join(root, 'site.conf'), 'utf8')).toBe(input);
      // What remains is reported on stderr (a clean golden: the summary alone, or nothing).
      expect(result.stderr).not.toContain('internal error');
      expect(result.status, `${fixture}\n${result.stderr}`).toBe(0);
    }
  });

  it('--fix reports what remains on stderr, and still prints a text with nothing to fix', () => {
    const root = tree({});
    const text = 'server {\n    listen 80;\n    location / { include missing.conf; }\n}\n';
    const result = runCli(root, ['check', '-', '--fix'], {}, text);
    expect(result.stdout).toBe(text);
    expect(result.stderr).toContain('<stdin>');
    expect(result.stderr).toContain('include file "missing.conf" not found');
    expect(result.status).toBe(1);
  });

  it('--fix-dry-run prints a patch against the --stdin-filename', () => {
    const root = tree({});
    // Without the include: a pass whose snippet cannot be read gets no fix (it might keep closing connections).
    const site = UPSTREAM_SITE.replace('include snippets/proxy.conf; ', '');
    const result = runCli(root, ['check', '-', '--fix-dry-run', '--stdin-filename', 'site.conf'], {}, site);
    expect(result.stdout).toContain('--- a/site.conf\n+++ b/site.conf\n');
    expect(result.stdout).toContain('+upstream app { server 127.0.0.1:8080; keepalive 16; }');
  });

  it('reads no more than --max-file-size: a larger stdin is an error (exit 2), not a partial check', () => {
    const root = tree({});
    const result = runCli(root, ['check', '-', '--max-file-size', '1K'], {}, 'events {}\n'.repeat(1000));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('<stdin>: not checked: stdin holds more than the 1 KB file size limit');
  });

  it('skips binary input with a note, and checks empty input as an empty file', () => {
    const root = tree({});
    const binary = runCli(root, ['check', '-'], {}, Buffer.from([0x65, 0, 0x66]));
    expect(binary.stderr).toContain('<stdin>: skipped (binary file)');
    const empty = runCli(root, ['check', '-', '--format', 'json']);
    expect(empty.status).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([expect.objectContaining({ filePath: path.join(root, '<stdin>'), messages: [] })]);
  });

  it('--fix and format - refuse input that is not UTF-8 rather than print U+FFFD in its place (exit 2, nothing on stdout)', () => {
    const root = tree({});
    // A Latin-1 é in a comment, with nothing to fix or format: the output would replace the file in a pipeline.
    const latin1 = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\nevents {}\n')]);
    for (const args of [['check', '-', '--fix'], ['format', '-']]) {
      const result = runCli(root, args, {}, latin1);
      expect(result, args.join(' ')).toEqual({ status: 2, stdout: '', stderr: 'nginx-keepalive: <stdin>: not valid UTF-8, not rewritten\n' });
    }
    // Where nothing goes back out, the text is read as on disk (U+FFFD): checked and reported as usual.
    expect(runCli(root, ['check', '-'], {}, latin1).status).toBe(0);
    expect(runCli(root, ['format', '-', '--check'], {}, latin1).status).toBe(0);
    // Valid UTF-8 (a BOM included) comes back byte for byte.
    const utf8 = Buffer.from('\ufeff# café\nevents {}\n');
    expect(Buffer.from(runCli(root, ['format', '-'], {}, utf8).stdout)).toEqual(utf8);
  });

  it('--fix and format - refuse binary input (a NUL byte) with exit 2 instead of printing nothing', () => {
    const root = tree({});
    const binary = Buffer.from('events {}\n\0\n');
    for (const args of [['check', '-', '--fix'], ['format', '-']]) {
      const result = runCli(root, args, {}, binary);
      expect(result, args.join(' ')).toEqual({ status: 2, stdout: '', stderr: 'nginx-keepalive: <stdin>: binary file (it holds a NUL byte), not rewritten\n' });
    }
  });

  it('refuses - mixed with paths, and --stdin-filename without -', () => {
    const root = tree({ 'a.conf': '' });
    const mixed = runCli(root, ['check', '-', 'a.conf']);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain('"-" (stdin) cannot be combined with other paths');
    const alone = runCli(root, ['check', 'a.conf', '--stdin-filename', 'x.conf']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--stdin-filename only applies to "check -"');
  });
});
