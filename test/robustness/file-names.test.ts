// File names as they come, shown as they are (issue 10, item 14): not valid UTF-8, starting with `..`, holding
// terminal escape sequences or newlines. And the command line's --path-map validated as the settings file's pathMap.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../server/src/cli/args.js';
import { displayPath, fileNameFromBytes, printablePath } from '../../server/src/util/paths.js';
import { runCli } from '../cli/helpers.js';
import { useTempTrees } from './support.js';

const tree = useTempTrees();

/** An upstream without keepalive: one warning, on line 1. */
const FINDING = 'upstream app { server 127.0.0.1:3000; }\n';
const ESC = '\u001b';

/** `root/<parts…>` as bytes, so a part can hold bytes that are not UTF-8. */
const bytePath = (root: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts]);

describe('a file name that is not valid UTF-8', () => {
  it('is reported by name, with its bytes escaped, not as "no such file or directory"; the rest is checked', () => {
    const root = tree({ 'good.conf': FINDING });
    writeFileSync(bytePath(root, Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('.conf')), FINDING);
    // A directory whose name is not UTF-8: its files cannot be reached either.
    const directory = bytePath(root, Buffer.from([0xff]), Buffer.from('-dir'));
    mkdirSync(directory);
    writeFileSync(Buffer.concat([directory, Buffer.from('/inner.conf')]), FINDING);
    // Not a config by its name: not a concern of the check.
    writeFileSync(bytePath(root, Buffer.from([0xe9]), Buffer.from('.txt')), 'x');

    const result = runCli(root, ['check', '--format', 'json', '.']);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n').sort()).toEqual([
      '',
      'nginx-keepalive: "\\xff-dir": not checked: its name is not valid UTF-8 (rename it to check it)',
      'nginx-keepalive: "caf\\xe9.conf": not checked: its name is not valid UTF-8 (rename it to check it)',
    ]);
    const files = (JSON.parse(result.stdout) as Array<{ filePath: string }>).map((file) => path.relative(root, file.filePath));
    expect(files).toEqual(['good.conf']);
  });

  it('round-trips valid names and escapes each bad byte (fileNameFromBytes, printablePath)', () => {
    expect(fileNameFromBytes(Buffer.from('caf\u00e9 \u{1f600}.conf'))).toBe('caf\u00e9 \u{1f600}.conf');
    const bad = fileNameFromBytes(Buffer.from([0x61, 0xe9, 0x62, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xef, 0xbb, 0xbf]));
    expect(printablePath(bad)).toBe('"a\\xe9b\u00e9\\xed\\xa0\\x80\ufeff"');
  });

  it('returns printable ASCII as it is, and still escapes the characters just outside it (printablePath)', () => {
    // Every character from space to `~`, quotes and backslashes included: unchanged, unquoted (its fast path).
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(printablePath(printable)).toBe(printable);
    expect(printablePath('a\x7fb')).toBe('"a\\x7fb"');
    expect(printablePath('a\x1fb')).toBe('"a\\x1fb"');
    expect(printablePath('a\u0085"b')).toBe('"a\\x85\\"b"');
    expect(printablePath('caf\u00e9.conf')).toBe('caf\u00e9.conf');
  });
});

describe('a file name starting with two dots', () => {
  it('is shown relative, and gets a relative URI in SARIF and GitHub annotations', () => {
    const root = tree({ '..dots.conf': FINDING });
    const stylish = runCli(root, ['check', '.']);
    expect(stylish.stdout.split('\n')[0]).toBe('..dots.conf');

    const sarif = JSON.parse(runCli(root, ['check', '--format', 'sarif', '.']).stdout) as {
      runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: unknown } }> }> }>;
    };
    expect(sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: '..dots.conf', uriBaseId: '%SRCROOT%' });

    const github = runCli(root, ['check', '--format', 'github', '.']);
    expect(github.stdout).toMatch(/^::warning file=\.\.dots\.conf,line=1,/);
    // A path really above the working directory still shows as absolute.
    expect(displayPath('/a/b', '/a/c')).toBe('/a/b');
    expect(displayPath('/a/..b', '/a')).toBe('..b');
  });
});

describe('a file name holding control characters', () => {
  const names = [`${ESC}]0;pwned${ESC}\\x.conf`, `${ESC}[2J${ESC}[31mred.conf`, 'two\nlines.conf'];

  it('is escaped in stylish and GitHub output, never printed raw', () => {
    const root = tree(Object.fromEntries(names.map((name) => [name, FINDING])));
    for (const format of ['stylish', 'github']) {
      const result = runCli(root, ['check', '--format', format, '.']);
      expect(result.status).toBe(1);
      expect(result.stdout).not.toContain(ESC);
      for (const name of names) expect(result.stdout).not.toContain(name);
    }
    const stylish = runCli(root, ['check', '.']).stdout;
    expect(stylish).toContain('"\\x1b[2J\\x1b[31mred.conf"\n');
    expect(stylish).toContain('"two\\x0alines.conf"\n');
    expect(stylish).toContain('"\\x1b]0;pwned\\x1b\\\\x.conf"\n');
  });

  it('is escaped in error messages too', () => {
    const root = tree({});
    const name = `${ESC}[31mmissing.conf`;
    const result = runCli(root, ['check', path.join(root, 'dir', name, 'x')]);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toContain(ESC);
  });
});

describe('--path-map', () => {
  const parse = (spec: string) => parseCommandLine(['check', '--path-map', spec], { cwd: '/work', env: {}, stdoutIsTTY: false });

  it('rejects a relative FROM, as the settings file does', () => {
    expect(() => parse('relative=x')).toThrow(UsageError);
    expect(() => parse('relative=x')).toThrow('invalid --path-map "relative=x": "relative" must be an absolute include prefix such as /etc/nginx');
    const result = runCli(tree({}), ['check', '--path-map', 'relative=x']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
  });

  it('takes what the settings file takes, trailing slashes trimmed', () => {
    const command = parse('/etc/nginx//=deploy');
    expect(command.kind === 'check' && command.options.pathMap).toEqual([{ from: '/etc/nginx', to: '/work/deploy' }]);
  });
});
