// What the reports say about fixes and details: stylish markers, withheld reasons, --verbose details, the fixable
// summary and --statistics; JSON's and SARIF's own properties.
import { describe, expect, it } from 'vitest';
import { formatJson, type JsonResult } from '../../server/src/cli/format-json.js';
import { formatSarif } from '../../server/src/cli/format-sarif.js';
import { formatStatistics } from '../../server/src/cli/format-statistics.js';
import { fixableLine, formatStylish } from '../../server/src/cli/format-stylish.js';
import { formatGithub } from '../../server/src/cli/format-github.js';
import { groupByFile } from '../../server/src/cli/report.js';
import type { Finding } from '../../server/src/util/types.js';
import { findingAt } from './helpers.js';

const cwd = '/repo';
const SITE = '/repo/site.conf';
const TEXT = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  proxy_pass http://app;\n  listen 80;\n}\n';

function findings(): Finding[] {
  const safe = findingAt(SITE, TEXT, 'upstream app', { message: 'add keepalive 16;' });
  safe.fixable = true;
  safe.detail = 'nginx opens a new connection\nfor every request';
  const unsafe = findingAt(SITE, TEXT, 'proxy_pass http://app;', { ruleId: 'proxy-pass-no-upstream', message: 'send the headers' });
  unsafe.fixable = true;
  unsafe.unsafeFix = true;
  const withheld = findingAt(SITE, TEXT, 'listen 80;', { ruleId: 'proxy-http-version', message: 'set HTTP/1.1' });
  withheld.withheld = 'the include snippets/x.conf could not be read';
  return [safe, unsafe, withheld];
}

const reports = (list = findings()) => groupByFile([{ path: SITE, text: TEXT }], list, cwd);

describe('stylish: fixes and details', () => {
  it('marks safe [*] and unsafe [*unsafe] fixes, says why a fix is withheld, and ends with the fixable count', () => {
    const output = formatStylish(reports(), { cwd, color: false });
    const lines = output.split('\n');
    expect(lines).toContain('  1:1  warning  [*] add keepalive 16;       upstream-keepalive');
    expect(lines).toContain('  5:3  warning  [*unsafe] send the headers  proxy-pass-no-upstream');
    expect(lines).toContain('  6:3  warning  set HTTP/1.1                proxy-http-version');
    expect(lines[lines.indexOf('  6:3  warning  set HTTP/1.1                proxy-http-version') + 1]).toBe(
      '    no fix: the include snippets/x.conf could not be read',
    );
    expect(output).not.toContain('for every request');
    expect(output.endsWith('  1 fixable with --fix (1 more with --unsafe-fixes)\n')).toBe(true);
  });

  it('--verbose prints the detail under the finding, each line indented, before the code frame', () => {
    const lines = formatStylish(reports(), { cwd, color: false, verbose: true }).split('\n');
    const at = lines.indexOf('  1:1  warning  [*] add keepalive 16;       upstream-keepalive');
    expect(lines.slice(at + 1, at + 4)).toEqual(['    nginx opens a new connection', '    for every request', '    1 | upstream app {']);
  });

  it('escapes control characters in the withheld reason and the detail', () => {
    const [finding] = findings();
    finding!.withheld = 'file \u001b[31mred';
    finding!.detail = 'x\u001b]0;title\u0007';
    const output = formatStylish(reports([finding!]), { cwd, color: false, verbose: true });
    expect(output).not.toContain('\u001b');
    expect(output).toContain('no fix: file \\x1b[31mred');
  });

  it('words the fixable count for each mix of safe and unsafe fixes', () => {
    const [safe, unsafe, none] = findings();
    expect(fixableLine([none!], false)).toBe('');
    expect(fixableLine([safe!, none!], false)).toBe('  1 fixable with --fix\n');
    expect(fixableLine([safe!, unsafe!], false)).toBe('  1 fixable with --fix (1 more with --unsafe-fixes)\n');
    expect(fixableLine([unsafe!], false)).toBe('  1 fixable with --fix --unsafe-fixes\n');
    expect(fixableLine([safe!, unsafe!], true)).toBe('  2 fixable with --fix --unsafe-fixes\n');
    expect(fixableLine([safe!], true)).toBe('  1 fixable with --fix\n');
  });

  it('colors the markers: green for safe, yellow for unsafe', () => {
    const output = formatStylish(reports(), { cwd, color: true });
    expect(output).toContain('\u001b[32m[*] \u001b[39m');
    expect(output).toContain('\u001b[33m[*unsafe] \u001b[39m');
  });
});

describe('--statistics', () => {
  it('counts findings per rule, most first, with what is fixable', () => {
    const list = findings();
    const second = findingAt(SITE, TEXT, 'server 127', { message: 'again' });
    list.push(second);
    expect(formatStatistics(reports(list), { color: false })).toBe(
      [
        '',
        'Findings per rule:',
        '  2  upstream-keepalive      1 fixable',
        '  1  proxy-http-version',
        '  1  proxy-pass-no-upstream  1 fixable with --unsafe-fixes',
        '',
      ].join('\n'),
    );
    expect(formatStatistics(reports(list), { color: false, unsafeFixes: true })).toContain('proxy-pass-no-upstream  1 fixable\n');
  });

  it('prints nothing without findings', () => {
    expect(formatStatistics(reports([]), { color: false })).toBe('');
  });
});

describe('JSON: detail, withheld and safety', () => {
  it('adds detail, fixWithheld and fixSafety to messages; fixable counts are what --fix would fix', () => {
    const [result] = JSON.parse(formatJson(reports())) as JsonResult[];
    expect(result!.messages.map(({ detail, fixWithheld, fixSafety }) => ({ detail, fixWithheld, fixSafety }))).toEqual([
      { detail: 'nginx opens a new connection\nfor every request', fixWithheld: undefined, fixSafety: 'safe' },
      { detail: undefined, fixWithheld: undefined, fixSafety: 'unsafe' },
      { detail: undefined, fixWithheld: 'the include snippets/x.conf could not be read', fixSafety: undefined },
    ]);
    expect(result!.fixableWarningCount).toBe(1);
    const [unsafeToo] = JSON.parse(formatJson(reports(), { unsafeFixes: true })) as JsonResult[];
    expect(unsafeToo!.fixableWarningCount).toBe(2);
  });

  it('never builds a fix to count it', () => {
    const [finding] = findings();
    Object.defineProperty(finding!, 'fix', {
      get() {
        throw new Error('built');
      },
    });
    expect(() => formatJson(reports([finding!]))).not.toThrow();
    expect(() => formatStylish(reports([finding!]), { cwd, color: false })).not.toThrow();
  });
});

describe('SARIF and GitHub: the headline as message', () => {
  it('puts detail and the withheld reason in the result properties, and marks an unsafe fix', () => {
    const list = findings();
    list[1]!.fix = { title: 'Send them', safety: 'unsafe', edits: [{ file: SITE, startOffset: 0, endOffset: 0, newText: '#' }] };
    const log = JSON.parse(formatSarif(reports(list), { cwd, rules: [] }));
    const results = log.runs[0].results;
    expect(results.map((result: { message: { text: string } }) => result.message.text)).toEqual([
      'add keepalive 16;',
      'send the headers',
      'set HTTP/1.1',
    ]);
    expect(results[0].properties).toEqual({ detail: 'nginx opens a new connection\nfor every request' });
    expect(results[1].fixes[0]).toMatchObject({ description: { text: 'Send them' }, properties: { safety: 'unsafe' } });
    expect(results[2].properties).toEqual({ fixWithheld: 'the include snippets/x.conf could not be read' });
    expect(results[2].fixes).toBeUndefined();
  });

  it('GitHub annotations carry the headline only', () => {
    const output = formatGithub(reports(), cwd);
    expect(output).toContain('::add keepalive 16;\n');
    expect(output).not.toContain('for every request');
  });
});
