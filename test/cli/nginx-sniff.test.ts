// The sniff that decides whether a `.sigil`/`.tmpl` file is nginx: linear on hostile lines (issue 10, item 1),
// accepting exactly what the regular expression it replaced accepted, and reading only a bounded prefix of a file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNginxFile, looksLikeNginx, SNIFF_BYTES } from '../../server/src/engine/nginx-files.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

/** The 28-action `values.tmpl` of the issue: YAML whose key is all template actions (took 28 s). */
const VALUES_TMPL = `${Array.from({ length: 28 }, (_, i) => `{{ .V${i} }}`).join('')}: value\n`;
/** The `app.sigil` of the issue: forty empty actions and no statement (never finished). */
const EMPTY_ACTIONS = `${'{{}}'.repeat(40)}!`;

describe('looksLikeNginx on the shapes that made the old expression backtrack', () => {
  // A hang fails these by the test timeout; the results are what the old expression gave on shorter runs.
  it('rejects the issue\'s values.tmpl and {{}}×40 + "!"', () => {
    expect(looksLikeNginx(VALUES_TMPL)).toBe(false);
    expect(looksLikeNginx(EMPTY_ACTIONS)).toBe(false);
  });

  it('still finds a statement after or between thousands of actions, on a long line', () => {
    expect(looksLikeNginx(`${'{{}}'.repeat(20_000)}listen 80;${'{{ end }}'.repeat(20_000)}`)).toBe(true);
    expect(looksLikeNginx(`${'{{}}'.repeat(20_000)}listen 80;${'{{ end }}'.repeat(20_000)} x`)).toBe(false);
    expect(looksLikeNginx(`listen ${'{{}}'.repeat(50_000)}:`)).toBe(false);
  });
});

/**
 * The expression the scan replaced, as the oracle: it is exponential only in the number of actions on a line that
 * fails, so on the short lines generated here it answers at once.
 */
const OLD_STATEMENT_LINE =
  /^[ \t]*(?:\{\{.*?\}\}[ \t]*)*[a-z_][a-z0-9_]*(?:[ \t]+[^\s=:][^\n]*)?[ \t]*[;{}][ \t]*(?:\{\{.*?\}\}[ \t]*)*(?:#.*)?$/m;

/**
 * Characters that matter to every part of the line shape, and whole parts (names, arguments, actions, comments) so
 * that near-statements are common. No lone `\r`: the scan ends lines at `\n` only.
 */
const PIECES = ['{{', '}}', '{', '}', ' ', '\t', 'a', 'z', '_', '9', ';', ':', '=', '#', 'X', '"', '.', '\n', '\r\n', '\u00a0'];
const PARTS = ['listen', 'a_1', ' 80', ' x y', '{{}}', '{{ .X }}', ' }}', '}} ', ' # c', ': v', ' = v', ' ;', '\t{'];

describe('looksLikeNginx agrees with the expression it replaced', () => {
  it('on generated lines', () => {
    const text = fc.array(fc.constantFrom(...PIECES, ...PARTS), { maxLength: 16 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, (sample) => looksLikeNginx(sample) === OLD_STATEMENT_LINE.test(sample)),
      { seed: 20_261_121, numRuns: 20_000 },
    );
  });

  it('on the statements and non-statements worth naming', () => {
    const samples = [
      'listen 80;',
      '  {{ if $.SSL }}listen 443 ssl;{{ end }}',
      '{{ a }} b }}server {',
      'location / { # comment',
      '}',
      'key: value',
      'key = value;',
      'Listen 80;',
      'listen 80; x',
      'listen 80;\r\n',
      '{{ range . }}',
    ];
    expect(samples.map(looksLikeNginx)).toEqual(samples.map((sample) => OLD_STATEMENT_LINE.test(sample)));
  });
});

describe('isNginxFile reads a bounded prefix', () => {
  it('judges a huge template by its first lines, and only by whole lines', () => {
    const filler = `# ${'x'.repeat(100)}\n`.repeat(Math.ceil((2 * SNIFF_BYTES) / 100));
    const root = tree({
      'early.tmpl': `listen 80;\n${filler}`,
      'late.tmpl': `${filler}listen 80;\n`,
      // The prefix ends inside `listen 80; x`, whose whole line is not a statement.
      'cut.tmpl': `${'#'.repeat(SNIFF_BYTES - 'listen 80;'.length - 1)}\nlisten 80; x\n`,
    });
    expect(isNginxFile(path.join(root, 'early.tmpl'))).toBe(true);
    expect(isNginxFile(path.join(root, 'late.tmpl'))).toBe(false);
    expect(isNginxFile(path.join(root, 'cut.tmpl'))).toBe(false);
  });

  it('keeps a FIFO named like a template without opening it for a blocking read', () => {
    const root = tree({});
    execFileSync('mkfifo', [path.join(root, 'pipe.tmpl')]);
    expect(isNginxFile(path.join(root, 'pipe.tmpl'))).toBe(true);
  });

  it('checks neither repro file in a directory walk (the CLI finishes)', () => {
    const root = tree({ 'values.tmpl': VALUES_TMPL, 'app.sigil': EMPTY_ACTIONS, 'site.conf': 'events {}\n' });
    writeFileSync(path.join(root, 'more.sigil'), `${'{{}}'.repeat(40)}!\n`.repeat(100));
    const result = runCli(root, ['check', '--format', 'json', '.']);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as Array<{ filePath: string }>).map((file) => path.basename(file.filePath))).toEqual(['site.conf']);
  });
});
