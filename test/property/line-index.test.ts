// LineIndex.edited: the index of an edited text derived from the previous text's (the language server's incremental
// model does so at every keystroke) gives every offset the line and column a fresh index of the new text gives.
import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { LineIndex } from '../../server/src/model/line-index.js';
import { checkProperty } from './support.js';

const piece = fc.constantFrom('a', ' ', '\n', '\r\n', '\r', 'é', '😀', 'x\ny', '\n\n', '');
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

/** Every position of `index` over `content`, from offset 0 to one past the end. */
function positions(index: LineIndex, content: string) {
  return Array.from({ length: content.length + 2 }, (_, offset) => index.position(offset));
}

describe('LineIndex.edited', () => {
  it('equals a fresh index of the edited text after any sequence of edits', async () => {
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), deleted: fc.nat({ max: 6 }), inserted: text });
    await checkProperty(
      'line index after edits',
      fc.asyncProperty(text, fc.array(edit, { minLength: 1, maxLength: 6 }), async (first, edits) => {
        let content = first;
        let index = new LineIndex(content);
        for (const { at, deleted, inserted } of edits) {
          const start = Math.floor(at * content.length);
          const oldEnd = Math.min(content.length, start + deleted);
          content = content.slice(0, start) + inserted + content.slice(oldEnd);
          index = LineIndex.edited(index, content, start, oldEnd, inserted.length - (oldEnd - start));
          expect(positions(index, content)).toEqual(positions(new LineIndex(content), content));
        }
      }),
      500,
    );
  });

  it('keeps the lines before an edit, moves those after it and reads the new ones', () => {
    const before = 'a\nbb\ncc\nd';
    const after = 'a\nbX\nY\ncc\nd';
    const index = LineIndex.edited(new LineIndex(before), after, 3, 4, 2);
    expect([0, 2, 5, 7, 10, 11].map((offset) => index.position(offset))).toEqual([
      { line: 0, column: 0 },
      { line: 1, column: 0 },
      { line: 2, column: 0 },
      { line: 3, column: 0 },
      { line: 4, column: 0 },
      { line: 4, column: 1 },
    ]);
  });
});
