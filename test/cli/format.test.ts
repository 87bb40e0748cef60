import { describe, expect, it } from 'vitest';
import { codeFrame, splitSourceLines } from '../../server/src/cli/code-frame.js';
import { formatJson, type JsonResult } from '../../server/src/cli/format-json.js';
import { formatStylish } from '../../server/src/cli/format-stylish.js';
import { groupByFile } from '../../server/src/cli/report.js';
import { findingAt } from './helpers.js';

const cwd = '/repo';
const SITE = '/repo/deploy/site.conf';
const SITE_TEXT = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n\tproxy_pass http://app;\n}\n';
const CLEAN = '/repo/clean.conf';

const plainStyles = { gutter: (s: string) => s, marker: (s: string) => s };

function siteReports() {
  const findings = [
    findingAt(SITE, SITE_TEXT, 'proxy_pass http://app;', { severity: 'error', ruleId: 'proxy-http-version' }),
    findingAt(SITE, SITE_TEXT, 'upstream app', { message: 'no keepalive' }),
    findingAt(SITE, SITE_TEXT, 'server 127', { severity: 'info', ruleId: 'note', message: 'fyi' }),
  ];
  findings[0]!.fix = { title: 'fix', edits: [] };
  const documents = [
    { path: CLEAN, text: 'events {}\n' },
    { path: SITE, text: SITE_TEXT },
  ];
  return groupByFile(documents, findings, cwd);
}

describe('codeFrame', () => {
  const lines = splitSourceLines('a\r\nlisten 80 ;\n\tproxy_pass x;\n');

  it('underlines the span under the source line, with the 1-based line number', () => {
    const span = { start: { line: 1, column: 7 }, end: { line: 1, column: 9 }, startOffset: 10, endOffset: 12 };
    expect(codeFrame(lines, span, plainStyles)).toEqual(['2 | listen 80 ;', '  |        ^~']);
  });

  it('copies tabs into the indent and marks an empty span with a caret', () => {
    const span = { start: { line: 2, column: 1 }, end: { line: 2, column: 1 }, startOffset: 0, endOffset: 0 };
    expect(codeFrame(lines, span, plainStyles)).toEqual(['3 | \tproxy_pass x;', '  | \t^']);
  });

  it('underlines a multi-line span to the end of its first line', () => {
    const span = { start: { line: 1, column: 7 }, end: { line: 2, column: 3 }, startOffset: 0, endOffset: 0 };
    expect(codeFrame(lines, span, plainStyles)[1]).toBe('  |        ^~~~');
  });

  it('prints nothing for a line that does not exist', () => {
    const span = { start: { line: 9, column: 0 }, end: { line: 9, column: 1 }, startOffset: 0, endOffset: 0 };
    expect(codeFrame(lines, span, plainStyles)).toEqual([]);
  });
});

describe('formatStylish', () => {
  it('groups by file with aligned columns, code frames and a summary', () => {
    const output = formatStylish(siteReports(), { cwd, color: false });
    expect(output).toBe(
      [
        'deploy/site.conf',
        '  1:1  warning  no keepalive                   upstream-keepalive',
        '    1 | upstream app {',
        `      | ^${'~'.repeat('upstream app'.length - 1)}`,
        '  2:3  info     fyi                            note',
        '    2 |   server 127.0.0.1:3000;',
        `      |   ^${'~'.repeat('server 127'.length - 1)}`,
        '  5:2  error    [*] Upstream has no keepalive  proxy-http-version',
        '    5 | \tproxy_pass http://app;',
        `      | \t^${'~'.repeat('proxy_pass http://app;'.length - 1)}`,
        '',
        '\u2716 3 problems (1 error, 1 warning, 1 info)',
        '  1 fixable with --fix',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing when there are no findings', () => {
    expect(formatStylish(groupByFile([{ path: CLEAN, text: '' }], [], cwd), { cwd, color: false })).toBe('');
  });

  it('colors with ANSI codes only when asked', () => {
    expect(formatStylish(siteReports(), { cwd, color: false })).not.toContain('\u001b[');
    const colored = formatStylish(siteReports(), { cwd, color: true });
    expect(colored).toContain('\u001b[31merror');
    expect(colored).toContain('\u001b[33mwarning');
  });

  it('shows a file outside the working directory by its absolute path', () => {
    const finding = findingAt('/elsewhere/x.conf', 'listen 80;', 'listen');
    const output = formatStylish(groupByFile([{ path: '/elsewhere/x.conf', text: 'listen 80;' }], [finding], cwd), {
      cwd,
      color: false,
    });
    expect(output.split('\n')[0]).toBe('/elsewhere/x.conf');
  });
});

describe('formatJson', () => {
  it("uses ESLint's result shape, lists clean files, counts fixable findings, maps info to severity 0", () => {
    const results = JSON.parse(formatJson(siteReports())) as JsonResult[];
    expect(results.map((result) => result.filePath)).toEqual([CLEAN, SITE]);
    expect(results[0]).toEqual({
      filePath: CLEAN,
      messages: [],
      suppressedMessages: [],
      errorCount: 0,
      fatalErrorCount: 0,
      warningCount: 0,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      infoCount: 0,
      usedDeprecatedRules: [],
    });
    const site = results[1]!;
    expect(site.messages).toEqual([
      { ruleId: 'upstream-keepalive', severity: 1, message: 'no keepalive', line: 1, column: 1, endLine: 1, endColumn: 13 },
      { ruleId: 'note', severity: 0, message: 'fyi', line: 2, column: 3, endLine: 2, endColumn: 13 },
      {
        ruleId: 'proxy-http-version',
        severity: 2,
        message: 'Upstream has no keepalive',
        line: 5,
        column: 2,
        endLine: 5,
        endColumn: 24,
        fixSafety: 'safe',
      },
    ]);
    expect(site).toMatchObject({ errorCount: 1, warningCount: 1, infoCount: 1, fixableErrorCount: 1, fixableWarningCount: 0 });
  });

  it('counts columns in UTF-16 code units, 1-based, end exclusive', () => {
    const text = 'set $x "\u00e9\u{1F600}";';
    const finding = findingAt('/repo/u.conf', text, '";');
    const [result] = JSON.parse(formatJson(groupByFile([{ path: '/repo/u.conf', text }], [finding], cwd))) as JsonResult[];
    expect(result!.messages[0]).toMatchObject({ column: 12, endColumn: 14 });
  });

  it('adds a report for a finding in a file that was not checked directly (an include)', () => {
    const finding = findingAt('/nonexistent/inc.conf', 'listen 80;', 'listen');
    const results = JSON.parse(formatJson(groupByFile([], [finding], cwd))) as JsonResult[];
    expect(results.map((result) => [result.filePath, result.warningCount])).toEqual([['/nonexistent/inc.conf', 1]]);
  });
});
