// The GitLab Code Quality and reviewdog (rdjson) formats: each validated against its published schema
// (test/cli/schemas), end to end through dist/cli.js on real files, and the formatters' choices on hand-made findings.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGitlab } from '../../server/src/cli/format-gitlab.js';
import { formatRdjson, MAX_SUGGESTION_LINES } from '../../server/src/cli/format-rdjson.js';
import { groupByFile } from '../../server/src/cli/report.js';
import { docsUrl } from '../../server/src/engine/docs-url.js';
import { rules } from '../../server/src/rules/registry.js';
import type { Finding } from '../../server/src/util/types.js';
import { schemaErrors } from '../support/json-schema.js';
import { CLI, findingAt, runCli, useTempTrees } from './helpers.js';

const GITLAB_SCHEMA = new URL('./schemas/gitlab-codeclimate.json', import.meta.url);
const RDJSON_SCHEMA = new URL('./schemas/reviewdog-DiagnosticResult.json', import.meta.url);
/** An upstream without keepalive (a warning on line 1) used by a pass, and a missing include (line 5). */
const SITE = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  include missing.conf;\n  location / { proxy_pass http://app; }\n}\n';
/** Valid; its only finding is the unused suppression on line 2, whose safe fix removes the line. */
const STALE_SUPPRESSION = 'events {}\n# nginx-keepalive-ignore include: was needed once\nhttp {}\n';
const STALE_FIXED = 'events {}\nhttp {}\n';

const tree = useTempTrees();

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number; end: number } };
}

function gitlab(root: string, args: string[] = []): Issue[] {
  const result = runCli(root, ['check', '--format', 'gitlab', ...args]);
  expect(result.stderr).toBe('');
  const issues = JSON.parse(result.stdout) as Issue[];
  for (const issue of issues) expect(schemaErrors(GITLAB_SCHEMA, issue)).toEqual([]);
  return issues;
}

describe('the schemas', () => {
  it('reject what GitLab and reviewdog would not read (the validator is not vacuous)', () => {
    expect(schemaErrors(GITLAB_SCHEMA, { description: 'x', severity: 'minor', location: { path: 'a', lines: { begin: '1' } } })).toEqual([
      "/ must have required property 'fingerprint'",
      '/location/lines/begin must be integer',
    ]);
    expect(schemaErrors(RDJSON_SCHEMA, { diagnostics: [{ message: 'x', severity: 'FATAL', location: { range: { start: { line: 1.5 } } } }] })).not.toEqual([]);
  });
});

describe('--format gitlab', () => {
  it('prints Code Quality issues that pass GitLab\'s schema, with the fields its documentation asks for', () => {
    const root = tree({ 'deploy/my site.conf': SITE, 'nginx.conf': 'events {}\nhttp { include deploy/*.conf; }\n' });
    const issues = gitlab(root, ['deploy', '--rule', 'include=info']);
    expect(issues.map(({ check_name, severity, location }) => ({ check_name, severity, location }))).toEqual([
      { check_name: 'upstream-keepalive', severity: 'minor', location: { path: 'deploy/my site.conf', lines: { begin: 1, end: 1 } } },
      { check_name: 'include', severity: 'info', location: { path: 'deploy/my site.conf', lines: { begin: 5, end: 5 } } },
    ]);
    for (const issue of issues) {
      expect(issue.description).toMatch(/^\S.{0,99}$/);
      expect(issue.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(gitlab(tree({ 'nginx.conf': 'server { listen 80 }\n' }))[0]!.severity).toBe('major');
  });

  it('keeps fingerprints across runs and unrelated edits, and tells identical lines apart', () => {
    const root = tree({ 'site.conf': SITE });
    const before = gitlab(root).map((issue) => issue.fingerprint);
    expect(gitlab(root).map((issue) => issue.fingerprint)).toEqual(before);
    // Lines added above and the flagged lines re-indented: every finding moves, no fingerprint changes.
    const moved = tree({ 'site.conf': `# a comment\n\n${SITE.replace('  include', '\tinclude')}` });
    const after = gitlab(moved);
    expect(after.map((issue) => issue.location.lines.begin)).toEqual([3, 7]);
    expect(after.map((issue) => issue.fingerprint)).toEqual(before);
    // The same include twice: two issues, two fingerprints.
    const twice = gitlab(tree({ 'site.conf': 'events {}\ninclude missing.conf;\ninclude missing.conf;\n' }));
    expect(twice).toHaveLength(2);
    expect(new Set(twice.map((issue) => issue.fingerprint)).size).toBe(2);
    // Another file, or another flagged text: another fingerprint.
    expect(gitlab(tree({ 'other.conf': SITE }))[0]!.fingerprint).not.toBe(before[0]);
    expect(gitlab(tree({ 'site.conf': SITE.replace('app', 'api').replace('//app', '//api') }))[0]!.fingerprint).not.toBe(before[0]);
  });

  it('prints an empty array for a clean run', () => {
    expect(gitlab(tree({ 'nginx.conf': 'events {}\nhttp {}\n' }))).toEqual([]);
  });
});

interface RdPosition {
  line: number;
  column: number;
}
interface RdDiagnostic {
  message: string;
  location: { path: string; range: { start: RdPosition; end: RdPosition } };
  severity: string;
  code: { value: string; url?: string };
  suggestions?: { range: { start: RdPosition; end: RdPosition }; text: string }[];
}
interface RdResult {
  source: { name: string; url: string };
  diagnostics: RdDiagnostic[];
}

function rdjson(text: string): RdResult {
  const result = JSON.parse(text) as RdResult;
  expect(schemaErrors(RDJSON_SCHEMA, result)).toEqual([]);
  return result;
}

/** Applies a suggestion as reviewdog does: lines 1-based, columns 1-based UTF-8 byte offsets into the line. */
function applySuggestion(text: string, suggestion: NonNullable<RdDiagnostic['suggestions']>[number]): string {
  const bytes = Buffer.from(text, 'utf8');
  const offsetOf = ({ line, column }: RdPosition) => {
    let offset = 0;
    for (let current = 1; current < line; current++) offset = bytes.indexOf(0x0a, offset) + 1;
    return offset + column - 1;
  };
  const start = offsetOf(suggestion.range.start);
  const end = offsetOf(suggestion.range.end);
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(suggestion.text), bytes.subarray(end)]).toString('utf8');
}

describe('--format rdjson', () => {
  it("prints a DiagnosticResult that passes reviewdog's schema, with rule codes linking the docs", () => {
    const root = tree({ 'conf/site.conf': SITE });
    const result = runCli(root, ['check', '--format', 'rdjson']);
    expect(result.status).toBe(1);
    const { source, diagnostics } = rdjson(result.stdout);
    expect(source).toEqual({ name: 'nginx-keepalive', url: expect.stringMatching(/^https:\/\//) });
    expect(diagnostics.map((d) => [d.code.value, d.severity, d.location.path, d.location.range.start.line])).toEqual([
      ['upstream-keepalive', 'WARNING', 'conf/site.conf', 1],
      ['include', 'WARNING', 'conf/site.conf', 5],
    ]);
    expect(diagnostics[0]!.code.url).toBe(docsUrl('upstream-keepalive'));
  });

  it('turns a safe fix into a suggestion that, applied as reviewdog does, gives what --fix writes', () => {
    const root = tree({ 'nginx.conf': STALE_SUPPRESSION });
    const [diagnostic] = rdjson(runCli(root, ['check', '--format', 'rdjson']).stdout).diagnostics;
    expect(diagnostic!.suggestions).toHaveLength(1);
    expect(applySuggestion(STALE_SUPPRESSION, diagnostic!.suggestions![0]!)).toBe(STALE_FIXED);
    runCli(root, ['check', '--fix']);
    expect(readFileSync(path.join(root, 'nginx.conf'), 'utf8')).toBe(STALE_FIXED);
  });

  it('suggests the keepalive fix of a real upstream, spanning its edits', () => {
    const root = tree({ 'site.conf': SITE.replace('  include missing.conf;\n', '') });
    const { diagnostics } = rdjson(runCli(root, ['check', '--format', 'rdjson']).stdout);
    const keepalive = diagnostics.find((d) => d.code.value === 'upstream-keepalive')!;
    expect(applySuggestion(SITE.replace('  include missing.conf;\n', ''), keepalive.suggestions![0]!)).toContain('keepalive 16;');
  });
});

describe('on the corpus', () => {
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  /** The whole corpus's report, beyond runCli's 1 MB of output. */
  const checkCorpus = (format: string) =>
    spawnSync(process.execPath, [CLI, 'check', '--format', format, 'test/corpus'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;

  it('every GitLab issue passes the schema and has its own fingerprint', () => {
    const issues = JSON.parse(checkCorpus('gitlab')) as Issue[];
    expect(issues.length).toBeGreaterThan(1000);
    expect(issues.flatMap((issue) => schemaErrors(GITLAB_SCHEMA, issue))).toEqual([]);
    expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
  });

  it("every rdjson suggestion, applied as reviewdog does, gives the text SARIF's fix gives", () => {
    const { diagnostics } = rdjson(checkCorpus('rdjson'));
    type Replacement = { deletedRegion: { charOffset: number; charLength: number }; insertedContent: { text: string } };
    const sarif = JSON.parse(checkCorpus('sarif'));
    const results = sarif.runs[0].results as Array<{ ruleId: string; fixes?: Array<{ artifactChanges: Array<{ replacements: Replacement[] }> }> }>;
    expect(results.length).toBe(diagnostics.length);
    let compared = 0;
    diagnostics.forEach((diagnostic, index) => {
      const result = results[index]!;
      expect(result.ruleId).toBe(diagnostic.code.value);
      if (!diagnostic.suggestions) return;
      const text = readFileSync(path.join(repoRoot, diagnostic.location.path), 'utf8');
      const replacements = [...result.fixes![0]!.artifactChanges[0]!.replacements].sort((a, b) => b.deletedRegion.charOffset - a.deletedRegion.charOffset);
      const fixed = replacements.reduce(
        (current, { deletedRegion: { charOffset, charLength }, insertedContent }) =>
          current.slice(0, charOffset) + insertedContent.text + current.slice(charOffset + charLength),
        text,
      );
      expect(applySuggestion(text, diagnostic.suggestions[0]!), `${diagnostic.location.path} ${diagnostic.code.value}`).toBe(fixed);
      compared++;
    });
    expect(compared).toBeGreaterThan(100);
  });
});

describe('formatRdjson', () => {
  const cwd = '/repo';
  const FILE = '/repo/site.conf';
  // "é" is two bytes in UTF-8 and one UTF-16 unit: reviewdog's columns count bytes.
  const TEXT = 'server {\n  set $x "é"; proxy_pass http://10.0.0.1;\n}\n';
  const options = { cwd, rules: rules.map((rule) => rule.meta), unsafeFixes: false };
  const format = (findings: Finding[], overrides: Partial<typeof options> = {}) =>
    rdjson(formatRdjson(groupByFile([{ path: FILE, text: TEXT }], findings, cwd), { ...options, ...overrides })).diagnostics;
  const pass = () => findingAt(FILE, TEXT, 'proxy_pass http://10.0.0.1;', { ruleId: 'proxy-pass-no-upstream' });
  const at = (needle: string) => TEXT.indexOf(needle);

  it('counts columns in UTF-8 bytes', () => {
    const [diagnostic] = format([pass()]);
    const column = Buffer.byteLength('  set $x "é"; ') + 1;
    expect(diagnostic!.location.range).toEqual({ start: { line: 2, column }, end: { line: 2, column: column + 'proxy_pass http://10.0.0.1;'.length } });
  });

  it('suggests an unsafe fix only with --unsafe-fixes', () => {
    const finding = Object.assign(pass(), { fixable: true as const, unsafeFix: true as const });
    finding.fix = { title: 'use an upstream', safety: 'unsafe', edits: [{ file: FILE, startOffset: at('10.0.0.1'), endOffset: at('10.0.0.1') + 8, newText: 'backend' }] };
    expect(format([finding])[0]!.suggestions).toBeUndefined();
    const [suggested] = format([finding], { unsafeFixes: true });
    expect(applySuggestion(TEXT, suggested!.suggestions![0]!)).toBe(TEXT.replace('10.0.0.1', 'backend'));
  });

  it('merges a fix of several edits into one suggestion, and gives none for an edit in another file or a long span', () => {
    const finding = Object.assign(pass(), { fixable: true as const });
    finding.fix = {
      title: 'two edits',
      edits: [
        { file: FILE, startOffset: at('10.0.0.1'), endOffset: at('10.0.0.1') + 8, newText: 'backend' },
        { file: FILE, startOffset: at('server {') + 6, endOffset: at('server {') + 6, newText: ' ' },
      ],
    };
    const [merged] = format([finding]);
    expect(merged!.suggestions).toHaveLength(1);
    expect(applySuggestion(TEXT, merged!.suggestions![0]!)).toBe(TEXT.replace('10.0.0.1', 'backend').replace('server {', 'server  {'));
    finding.fix = { title: 'elsewhere', edits: [...finding.fix.edits, { file: '/repo/other.conf', startOffset: 0, endOffset: 0, newText: 'x' }] };
    expect(format([finding])[0]!.suggestions).toBeUndefined();
    const long = `server {\n${'  listen 80;\n'.repeat(MAX_SUGGESTION_LINES)}}\n`;
    const wide = Object.assign(findingAt(FILE, long, 'server {', { ruleId: 'syntax' }), { fixable: true as const });
    wide.fix = { title: 'wide', edits: [{ file: FILE, startOffset: 0, endOffset: long.length - 2, newText: '' }] };
    const reports = groupByFile([{ path: FILE, text: long }], [wide], cwd);
    expect(rdjson(formatRdjson(reports, options)).diagnostics[0]!.suggestions).toBeUndefined();
  });
});
