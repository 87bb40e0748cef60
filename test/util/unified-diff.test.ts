import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, unifiedDiff } from '../../server/src/util/unified-diff.js';
import { makeTree, removeTree } from '../cli/helpers.js';

const lines = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `line ${i + from}\n`).join('');

let roots: string[] = [];
afterEach(() => {
  roots.forEach(removeTree);
  roots = [];
});

/** Applies `diff` with GNU patch to a real copy of `oldText` and returns the result. */
function patched(oldText: string, diff: string): string {
  const root = makeTree({ 'x.conf': oldText, 'fix.diff': diff });
  roots.push(root);
  const result = spawnSync('patch', ['-p1', '--quiet', '-i', 'fix.diff'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`patch failed: ${result.stdout}${result.stderr}`);
  return readFileSync(path.join(root, 'x.conf'), 'utf8');
}

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'a/x', 'b/x')).toBe('');
  });

  it('prints one hunk with three lines of context', () => {
    const before = lines(10);
    const after = before.replace('line 5\n', 'line 5\n  keepalive 16;\n');
    expect(unifiedDiff(before, after, 'a/x.conf', 'b/x.conf')).toBe(
      [
        '--- a/x.conf',
        '+++ b/x.conf',
        '@@ -3,6 +3,7 @@',
        ' line 3',
        ' line 4',
        ' line 5',
        '+  keepalive 16;',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('splits distant changes into hunks and merges close ones', () => {
    const before = lines(30);
    const after = before.replace('line 2\n', 'two\n').replace('line 8\n', 'eight\n').replace('line 25\n', 'x\n');
    const diff = unifiedDiff(before, after, 'a/x', 'b/x');
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,11 +1,11 @@', '@@ -22,7 +22,7 @@']);
  });

  it('marks a missing final newline, and keeps \\r\\n line breaks', () => {
    const diff = unifiedDiff('a\r\nb', 'a\r\nc', 'a/x', 'b/x');
    expect(diff).toBe('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\r\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n');
  });

  it('handles an empty side', () => {
    expect(unifiedDiff('', 'a\n', 'a/x', 'b/x')).toBe('--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+a\n');
  });

  it.each([
    ['an insertion', lines(40), lines(40).replace('line 20\n', 'line 20\nnew\n')],
    ['changes everywhere', lines(60), lines(60).replace(/line (\d*[05])\n/g, 'changed $1\n')],
    ['a deletion at the end and CRLF', 'a\r\nb\r\nc\r\n', 'a\r\nb\r\n'],
    ['no final newline either side', 'a\nb', 'a\nB'],
    ['a byte order mark', '\uFEFFa\nb\n', '\uFEFFa\nb\nc\n'],
  ])('produces a patch GNU patch applies: %s', (_name, before, after) => {
    expect(patched(before, unifiedDiff(before, after, 'a/x.conf', 'b/x.conf'))).toBe(after);
  });

  it('finds a shortest edit script (a moved line is one delete and one insert)', () => {
    const ops = diffLines(['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a']);
    expect(ops.filter((op) => op.kind !== 'equal')).toEqual([
      { kind: 'delete', line: 'a' },
      { kind: 'insert', line: 'a' },
    ]);
  });

  it('still produces a correct patch when the texts differ beyond the search limit', () => {
    const before = lines(3000);
    const after = lines(3000, 5000);
    const diff = unifiedDiff(before, after, 'a/x.conf', 'b/x.conf');
    expect(patched(before, diff)).toBe(after);
  });
});
