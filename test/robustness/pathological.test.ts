// Shapes no person writes but generators and attackers do: nesting ten thousand deep, a hundred thousand directives
// on one line, thousands of findings on one line, glob classes RegExp rejects. Each must end (a hang or a quadratic
// blow-up would hit the test timeout), with a clear finding and no internal error, and the other files reported.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../../server/src/model/nesting-limit.js';
import { MAX_TEMPLATE_NESTING } from '../../server/src/model/template-guards.js';
import { reported, rulesByFile, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

const ORDINARY = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';

/** `depth` nested locations inside http/server, one per line, the innermost proxying to a keepalive-less upstream. */
function deeplyNested(depth: number): string {
  return (
    'events {}\nhttp {\nupstream deep { server 127.0.0.1:1; }\nserver {\n' +
    'location / {\n'.repeat(depth) +
    'proxy_pass http://deep;\n' +
    '}\n'.repeat(depth) +
    '}\n}\n'
  );
}

describe('deep nesting', () => {
  it('10,000 nested blocks: the blocks beyond the limit are reported and not checked; no stack overflow', () => {
    const root = tree({ 'deep.conf': deeplyNested(10_000), 'z.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('');
    const deep = reported(root, result.stdout).filter((finding) => finding.file === 'deep.conf');
    // Lines: events, http, upstream, server, then one location per line; the first one cut is level MAX + 1.
    expect(deep).toContainEqual({
      file: 'deep.conf',
      line: 4 + MAX_NESTING_DEPTH - 1,
      column: 1,
      ruleId: 'syntax',
      message: `blocks nested more than ${MAX_NESTING_DEPTH} levels deep are not checked (this one and any deeper)`,
    });
    expect(deep.map((finding) => finding.ruleId)).toEqual(['upstream-keepalive', 'syntax']);
    expect(rulesByFile(root, result.stdout)['z.conf']).toEqual(['upstream-keepalive']);
  });

  it('--fix leaves a file deeper than the limit alone (it has a syntax finding)', () => {
    const text = deeplyNested(10_000);
    const root = tree({ 'deep.conf': text });
    const result = runCli(root, ['check', 'deep.conf', '--fix']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
  });

  it('30,000 nested template blocks: reported past the limit, and --fix leaves the file alone', () => {
    const depth = 30_000;
    const text = `http {\nupstream deep { server 127.0.0.1:1; }\nserver {\n${'{{ if .X }}\n'.repeat(depth)}location / { proxy_pass http://deep; }\n${'{{ end }}\n'.repeat(depth)}}\n}\n`;
    const root = tree({ 'deep.conf.sigil': text });
    const result = runCli(root, ['check', 'deep.conf.sigil', '--fix', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(reported(root, result.stdout)).toContainEqual({
      file: 'deep.conf.sigil',
      line: 4 + MAX_TEMPLATE_NESTING,
      column: 1,
      ruleId: 'syntax',
      message: `template blocks nested more than ${MAX_TEMPLATE_NESTING} levels deep are not tracked (this one and any deeper)`,
    });
    expect(readFileSync(path.join(root, 'deep.conf.sigil'), 'utf8')).toBe(text);
  });

  it('a chain of includes, each file nested just below the limit, is cut by the include limit, not the stack', () => {
    // Every file's include sits at level MAX_NESTING_DEPTH (http and server count in nginx.conf): each file alone is
    // within the limit, the chain adds up to 100 times it.
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      const depth = MAX_NESTING_DEPTH - (i === 0 ? 3 : 1);
      const inner = i < 99 ? `include part${i + 1}.inc;\n` : 'return 200;\n';
      files[i === 0 ? 'nginx.conf' : `part${i}.inc`] = 'location / {\n'.repeat(depth) + inner + '}\n'.repeat(depth);
    }
    files['nginx.conf'] = `events {}\nhttp {\nserver {\n${files['nginx.conf']}}\n}\n`;
    const root = tree(files);
    const result = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(root, result.stdout)).toEqual([
      expect.objectContaining({ file: 'part1.inc', ruleId: 'include', message: expect.stringMatching(/^include limit reached/) }),
    ]);
  });

  it('10,000 unmatched braces are syntax errors, not a crash', () => {
    // `*.nginx`: claimed by name (a `*.conf` of braces alone does not read as nginx, so a walk would leave it out).
    const root = tree({ 'open.nginx': '{'.repeat(10_000), 'close.nginx': '}'.repeat(10_000), 'z.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('');
    const byFile = rulesByFile(root, result.stdout);
    expect(byFile['open.nginx']?.every((id) => id === 'syntax')).toBe(true);
    expect(byFile['close.nginx']?.every((id) => id === 'syntax')).toBe(true);
    expect(byFile['z.conf']).toEqual(['upstream-keepalive']);
  });
});

describe('one very long line', () => {
  it('100,000 directives on one line are checked, with the finding at its column', () => {
    const head = 'events {} http { upstream app { server 127.0.0.1:1; } server { ';
    const line = `${head}${'proxy_set_header X-A a; add_header X-B b; '.repeat(50_000)}location / { proxy_pass http://app; } } }\n`;
    // `*.nginx`: claimed by name. A walk sniffs a `*.conf` by its first 64 KB of whole lines, and this has none.
    const root = tree({ 'one-line.nginx': line, 'z.conf': ORDINARY });
    const result = runCli(root, ['check', '.', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(root, result.stdout).filter((finding) => finding.file === 'one-line.nginx')).toEqual([
      expect.objectContaining({ file: 'one-line.nginx', line: 1, column: head.indexOf('app') + 1, ruleId: 'upstream-keepalive' }),
    ]);
    expect(rulesByFile(root, result.stdout)['z.conf']).toEqual(['upstream-keepalive']);
  });

  it('10,000 findings on one line: each code frame shows a window of the line, not the whole line', () => {
    const head = 'events {} http { server { ';
    const root = tree({ 'many.conf': `${head}${'location /a { proxy_pass http://127.0.0.1:1; } '.repeat(10_000)}} }\n` });
    const result = runCli(root, ['check', 'many.conf']);
    expect(result.status).toBe(1);
    const rows = result.stdout.split('\n');
    const frames = rows.flatMap((row, index) => (row.startsWith('    1 | ') ? [{ source: row, caret: rows[index + 1]! }] : []));
    expect(frames).toHaveLength(10_000);
    expect(Math.max(...frames.map((frame) => frame.source.length))).toBeLessThanOrEqual('    1 | '.length + 202);
    // A window cut on both sides, with the caret under the proxy_pass the finding is about.
    const middle = frames[5_000]!;
    expect(middle.source).toMatch(/^ {4}1 \| ….*…$/);
    expect(middle.caret.indexOf('^')).toBe(middle.source.indexOf('proxy_pass http://127.0.0.1:1;', '    1 | …'.length + 1));
  });

  it('--fix-dry-run with 10,000 fixable findings on one line completes and leaves nothing to fix', () => {
    const root = tree({ 'many.conf': `events {} http { server { ${'location /a { proxy_pass http://127.0.0.1:1; } '.repeat(10_000)}} }\n` });
    const result = runCli(root, ['check', 'many.conf', '--fix-dry-run']);
    expect(result.stderr).toMatch(/--fix-dry-run: 1 file would change, nothing written; 0 problems would remain/);
    const added = result.stdout.split('\n').filter((row) => row.startsWith('+') && !row.startsWith('+++'));
    expect(added).toHaveLength(1);
    expect(added[0]!.match(/upstream backend_127_0_0_1_1 \{/g)).toHaveLength(1);
    expect(added[0]!.match(/proxy_pass http:\/\/backend_127_0_0_1_1;/g)).toHaveLength(10_000);
  });
});

describe('glob classes RegExp rejects', () => {
  it('in an include match nothing; on the command line match nothing; neither crashes', () => {
    const root = tree({ 'nginx.conf': 'events {}\nhttp {\n  include [z-a].conf;\n  include conf.d/[9-0]*.conf;\n}\n' });
    mkdirSync(path.join(root, 'conf.d'));
    writeFileSync(path.join(root, 'conf.d/5.conf'), 'server { listen 80; }\n');
    const included = runCli(root, ['check', 'nginx.conf', '--format', 'json']);
    expect(included.stderr).toBe('');
    expect(included.status).toBe(0);
    const globbed = runCli(root, ['check', 'conf.d/[9-0]*.conf']);
    expect(globbed.stderr).toBe('nginx-keepalive: conf.d/[9-0]*.conf: no files match\n');
    expect(globbed.status).toBe(2);
  });
});
