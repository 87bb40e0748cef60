// The server's text arithmetic: the one replacement a whole-text fix becomes, and clamped ranges.
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { advancePoint, clampRange, minimalReplacement, pointAt } from '../../server/src/lsp/text-edits.js';

const apply = (before: string, r: { startOffset: number; endOffset: number; newText: string }) =>
  before.slice(0, r.startOffset) + r.newText + before.slice(r.endOffset);

describe('minimalReplacement', () => {
  it('replaces only the part that differs', () => {
    expect(minimalReplacement('upstream a {\n}\n', 'upstream a {\n    keepalive 16;\n}\n')).toEqual({
      startOffset: 13,
      endOffset: 13,
      newText: '    keepalive 16;\n',
    });
    expect(minimalReplacement('same', 'same')).toBeUndefined();
  });

  it('never splits a CRLF or a surrogate pair, and always reproduces the new text', () => {
    const cases: Array<[string, string]> = [
      ['a\r\nb', 'a\rc'],
      ['x😀y', 'x😃y'],
      ['a\r\n', 'a\n'],
      ['\r\nz', '\nz'],
      ['😀', '😀😀'],
    ];
    for (const [before, after] of cases) {
      const replacement = minimalReplacement(before, after)!;
      expect(apply(before, replacement)).toBe(after);
      for (const offset of [replacement.startOffset, replacement.endOffset]) {
        const pair = before.slice(offset - 1, offset + 1);
        expect(pair === '\r\n' || /^[\ud800-\udbff][\udc00-\udfff]$/.test(pair)).toBe(false);
      }
    }
  });
});

describe('positions', () => {
  it('clamps ranges into the document and orders them', () => {
    const document = TextDocument.create('file:///a', 'nginx', 1, 'ab\ncd');
    expect(clampRange(document, { start: { line: 9, character: 9 }, end: { line: 0, character: 1 } })).toEqual({
      start: { line: 0, character: 1 },
      end: { line: 1, character: 2 },
    });
  });

  it("counts tree-sitter rows by '\\n' only", () => {
    expect(pointAt('a\rb\nc', 5)).toEqual({ row: 1, column: 1 });
    expect(advancePoint({ row: 2, column: 4 }, 'xy')).toEqual({ row: 2, column: 6 });
    expect(advancePoint({ row: 2, column: 4 }, 'x\ny\r\nzz')).toEqual({ row: 4, column: 2 });
  });
});
