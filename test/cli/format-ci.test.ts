// The CI formats: SARIF 2.1.0 (GitHub code scanning) and GitHub workflow commands.
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../../server/src/cli/format-github.js';
import { formatSarif, SARIF_SCHEMA } from '../../server/src/cli/format-sarif.js';
import { VERSION } from '../../server/src/cli/help.js';
import { groupByFile } from '../../server/src/cli/report.js';
import { rules } from '../../server/src/rules/registry.js';
import { docsUrl, RULE_DOCS_BASE_URL } from '../../server/src/engine/docs-url.js';
import { findingAt } from './helpers.js';

const cwd = '/repo';
const SITE = '/repo/deploy/my site.conf';
const TEXT = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n\tproxy_pass http://app;\n}\n';

function reports() {
  const keepalive = findingAt(SITE, TEXT, 'upstream app', { message: 'no keepalive' });
  const insertAt = TEXT.indexOf('\n') + 1;
  keepalive.fix = { title: 'Add keepalive 16;', edits: [{ file: SITE, startOffset: insertAt, endOffset: insertAt, newText: '  keepalive 16;\n' }] };
  const findings = [
    keepalive,
    findingAt(SITE, TEXT, 'proxy_pass http://app;', { severity: 'error', ruleId: 'syntax', message: 'bad, really: bad' }),
    findingAt(SITE, TEXT, 'server 127', { severity: 'info', ruleId: 'include', message: '100% sure\nsecond line' }),
    findingAt('/outside/x.conf', 'listen 80;', 'listen', { ruleId: 'internal-error', severity: 'error', message: 'boom' }),
  ];
  return groupByFile([{ path: SITE, text: TEXT }], findings, cwd);
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; informationUri: string; rules: Array<Record<string, any>> } };
    results: Array<Record<string, any>>;
    originalUriBaseIds: Record<string, { uri: string }>;
  }>;
}

describe('formatSarif', () => {
  const log = JSON.parse(formatSarif(reports(), { cwd, rules: rules.map((rule) => rule.meta) })) as SarifLog;
  const run = log.runs[0]!;

  it('is a SARIF 2.1.0 log with one run and the tool', () => {
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: 'nginx-keepalive', version: VERSION, informationUri: expect.stringMatching(/^https:\/\//) });
    expect(run.originalUriBaseIds['%SRCROOT%']).toEqual({ uri: 'file:///repo/' });
  });

  it('describes every registered rule with its docs link and default level, then any other id found', () => {
    const ids = run.tool.driver.rules.map((rule) => rule.id);
    expect(ids).toEqual([...rules.map((rule) => rule.meta.id), 'internal-error']);
    const syntax = run.tool.driver.rules[0]!;
    expect(syntax).toEqual({
      id: 'syntax',
      shortDescription: { text: rules[0]!.meta.description },
      helpUri: `${RULE_DOCS_BASE_URL}syntax.md`,
      defaultConfiguration: { level: 'error' },
    });
    expect(run.tool.driver.rules.at(-1)!.helpUri).toBeUndefined();
    for (const rule of run.tool.driver.rules.slice(0, -1)) expect(rule.helpUri).toBe(docsUrl(rule.id));
  });

  it('gives every result a consistent ruleIndex, a level, a message and a 1-based region', () => {
    expect(run.results).toHaveLength(4);
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(['error', 'warning', 'note']).toContain(result.level);
      expect(typeof result.message.text).toBe('string');
      const { region } = result.locations[0].physicalLocation;
      for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn']) expect(region[key]).toBeGreaterThanOrEqual(1);
    }
    const byRule = (id: string) => run.results.find((result) => result.ruleId === id)!;
    const [keepalive, info, error] = [byRule('upstream-keepalive'), byRule('include'), byRule('syntax')];
    expect(keepalive!.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'deploy/my%20site.conf', uriBaseId: '%SRCROOT%' },
      region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 13 },
    });
    expect([keepalive!.level, info!.level, error!.level]).toEqual(['warning', 'note', 'error']);
  });

  it('uses a file: URI for a file outside the working directory', () => {
    const outside = run.results.find((result) => result.ruleId === 'internal-error')!;
    expect(outside.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'file:///outside/x.conf' });
  });

  it('turns a fix into SARIF replacements by character offset', () => {
    const insertAt = TEXT.indexOf('\n') + 1;
    const [keepalive, syntax] = ['upstream-keepalive', 'syntax'].map((id) => run.results.find((result) => result.ruleId === id)!);
    expect(keepalive!.fixes).toEqual([
      {
        description: { text: 'Add keepalive 16;' },
        artifactChanges: [
          {
            artifactLocation: { uri: 'deploy/my%20site.conf', uriBaseId: '%SRCROOT%' },
            replacements: [{ deletedRegion: { charOffset: insertAt, charLength: 0 }, insertedContent: { text: '  keepalive 16;\n' } }],
          },
        ],
      },
    ]);
    expect(syntax!.fixes).toBeUndefined();
  });
});

describe('formatGithub', () => {
  it('prints one workflow command per finding, info as notice', () => {
    const lines = formatGithub(reports(), cwd).trimEnd().split('\n');
    expect(lines).toEqual([
      '::error file=/outside/x.conf,line=1,col=1,endLine=1,endColumn=7,title=internal-error::boom',
      '::warning file=deploy/my site.conf,line=1,col=1,endLine=1,endColumn=13,title=upstream-keepalive::no keepalive',
      '::notice file=deploy/my site.conf,line=2,col=3,endLine=2,endColumn=13,title=include::100%25 sure%0Asecond line',
      '::error file=deploy/my site.conf,line=5,col=2,endLine=5,endColumn=24,title=syntax::bad, really: bad',
    ]);
  });

  it("escapes as GitHub's toolkit does", () => {
    expect(escapeData('50%\r\nnext: a, b')).toBe('50%25%0D%0Anext: a, b');
    expect(escapeProperty('C:\\x,y%\n')).toBe('C%3A\\x%2Cy%25%0A');
  });

  it('prints nothing without findings', () => {
    expect(formatGithub(groupByFile([{ path: SITE, text: TEXT }], [], cwd), cwd)).toBe('');
  });
});
