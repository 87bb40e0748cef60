// LSP positions <-> offsets: the three line breaks the protocol knows, UTF-16 columns, and clamping.
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../server/src/features/positions.js';

describe('LineIndex', () => {
  const text = 'a\r\nbc\rd😀e\nf';
  const index = new LineIndex(text);

  it('counts \\r\\n, \\r and \\n as one line break each', () => {
    expect(index.lineCount).toBe(4);
    expect(index.positionAt(text.indexOf('b'))).toEqual({ line: 1, character: 0 });
    expect(index.positionAt(text.indexOf('d'))).toEqual({ line: 2, character: 0 });
    expect(index.positionAt(text.indexOf('f'))).toEqual({ line: 3, character: 0 });
  });

  it('uses UTF-16 columns (a non-BMP character is two)', () => {
    expect(index.positionAt(text.indexOf('e'))).toEqual({ line: 2, character: 3 });
    expect(index.offsetAt({ line: 2, character: 3 })).toBe(text.indexOf('e'));
  });

  it('round-trips every offset', () => {
    for (let offset = 0; offset <= text.length; offset++) {
      const position = index.positionAt(offset);
      // An offset between \r and \n has no position of its own: it maps to the line's end.
      if (text[offset - 1] === '\r' && text[offset] === '\n') continue;
      expect(index.offsetAt(position)).toBe(offset);
    }
  });

  it('clamps a character past the line end to the end of the line, and lines past the end to the text end', () => {
    expect(index.offsetAt({ line: 0, character: 99 })).toBe(1);
    expect(index.offsetAt({ line: 1, character: 99 })).toBe(text.indexOf('\rd'));
    expect(index.offsetAt({ line: 9, character: 0 })).toBe(text.length);
    expect(index.rangeOf({ startOffset: 0, endOffset: text.length })).toEqual({
      start: { line: 0, character: 0 },
      end: { line: 3, character: 1 },
    });
  });
});
