// End to end --fix / --fix-dry-run with the keepalive rules' own fixes (upstream-keepalive inserts `keepalive N;`).
// Assertions are about what the CLI guarantees (keepalive lands in the block, the result parses, a second run
// changes nothing), not the exact text other rules' fixes add around it.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/engine/syntax-check.js';
import { runCli, useTempTrees } from './helpers.js';

const SITE =
  'events {}\n' +
  'http {\n' +
  '    upstream app {\n' +
  '        server 127.0.0.1:3000;\n' +
  '    }\n' +
  '    server {\n' +
  '        listen 80;\n' +
  '        location / {\n' +
  '            proxy_pass http://app;\n' +
  '        }\n' +
  '    }\n' +
  '}\n';

/** The upstream block's body in `text`. */
const upstreamBody = (text: string) => /upstream app \{([^}]*)\}/.exec(text)?.[1] ?? '';

let isClean: SyntaxChecker;
beforeAll(async () => {
  isClean = await loadSyntaxChecker();
});

const tree = useTempTrees();

describe('--fix with upstream-keepalive', () => {
  it('reports the finding as fixable first', () => {
    const result = runCli(tree({ 'nginx.conf': SITE }), ['check', '--format', 'json']);
    const [report] = JSON.parse(result.stdout);
    const finding = report.messages.find((message: { ruleId: string }) => message.ruleId === 'upstream-keepalive');
    expect(finding).toMatchObject({ line: 3 });
    expect(report.fixableWarningCount + report.fixableErrorCount).toBeGreaterThan(0);
  });

  it('inserts keepalive 16; into the upstream, keeps the file clean, and a second run changes nothing', () => {
    const root = tree({ 'nginx.conf': SITE });
    const file = path.join(root, 'nginx.conf');
    const first = runCli(root, ['check', '--fix', '--format', 'json']);
    const fixed = readFileSync(file, 'utf8');
    expect(upstreamBody(fixed)).toMatch(/\n        keepalive 16;\n/);
    expect(isClean(file, fixed)).toBe(true);
    const remaining = JSON.parse(first.stdout)[0].messages.map((message: { ruleId: string }) => message.ruleId);
    expect(remaining).not.toContain('upstream-keepalive');

    const inode = statSync(file).ino;
    runCli(root, ['check', '--fix']);
    expect(readFileSync(file, 'utf8')).toBe(fixed);
    expect(statSync(file).ino).toBe(inode);
  });

  it('uses --keepalive-connections, and the settings file when the flag is absent', () => {
    const root = tree({ 'nginx.conf': SITE, '.nginx-keepalive.json': '{"keepaliveConnections": 48}' });
    runCli(root, ['check', '--fix', '--keepalive-connections', '32']);
    expect(upstreamBody(readFileSync(path.join(root, 'nginx.conf'), 'utf8'))).toContain('keepalive 32;');

    const other = tree({ 'nginx.conf': SITE, '.nginx-keepalive.json': '{"keepaliveConnections": 48}' });
    runCli(other, ['check', '--fix']);
    expect(upstreamBody(readFileSync(path.join(other, 'nginx.conf'), 'utf8'))).toContain('keepalive 48;');
  });

  it('--fix-dry-run shows the insertion as a diff and writes nothing', () => {
    const root = tree({ 'nginx.conf': SITE });
    const result = runCli(root, ['check', '--fix-dry-run']);
    expect(result.stdout).toMatch(/^--- a\/nginx\.conf\n\+\+\+ b\/nginx\.conf\n@@ /);
    expect(result.stdout).toContain('\n+        keepalive 16;\n');
    expect(readFileSync(path.join(root, 'nginx.conf'), 'utf8')).toBe(SITE);
  });

  it('keeps CRLF line endings and the byte order mark', () => {
    const crlf = `\uFEFF${SITE.replace(/\n/g, '\r\n')}`;
    const root = tree({ 'nginx.conf': crlf });
    runCli(root, ['check', '--fix']);
    const fixed = readFileSync(path.join(root, 'nginx.conf'), 'utf8');
    expect(fixed.startsWith('\uFEFFevents')).toBe(true);
    expect(fixed).toContain('keepalive 16;\r\n');
    expect(fixed.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('a SARIF result carries the fix', () => {
    const result = runCli(tree({ 'nginx.conf': SITE }), ['check', '--format', 'sarif']);
    const run = JSON.parse(result.stdout).runs[0];
    const finding = run.results.find((r: { ruleId: string }) => r.ruleId === 'upstream-keepalive');
    const inserted = finding.fixes[0].artifactChanges.flatMap((change: { replacements: Array<{ insertedContent: { text: string } }> }) =>
      change.replacements.map((replacement) => replacement.insertedContent.text),
    );
    expect(inserted.join('')).toContain('keepalive 16;');
  });
});
