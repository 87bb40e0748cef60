// Line and column of a text offset, computed from the text itself rather than asked of tree-sitter: every
// web-tree-sitter position read is a call into wasm, and a model of a large file needs several per directive.
// Rows and columns follow tree-sitter's own (test/model/tree-positions.test.ts checks they agree): a row ends at
// `\n` only (a `\r` is an ordinary column), and columns are UTF-16 code units, as web-tree-sitter's indices are.
import type { Position, Span } from '../util/types.js';

export class LineIndex {
  /** Offsets at which each line starts; starts[0] is 0. */
  private readonly starts: Int32Array;
  /** The line of the last lookup: a model is built in document order, so the next offset is usually near it. */
  private hint = 0;

  constructor(text: string) {
    const starts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    this.starts = Int32Array.from(starts);
  }

  position(offset: number): Position {
    const line = this.lineOf(offset);
    return { line, column: offset - this.starts[line]! };
  }

  /** The offset at which the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.starts[this.lineOf(offset)]!;
  }

  span(startOffset: number, endOffset: number): Span {
    return { start: this.position(startOffset), end: this.position(endOffset), startOffset, endOffset };
  }

  private lineOf(offset: number): number {
    const starts = this.starts;
    const hint = this.hint;
    if (starts[hint]! <= offset && (hint + 1 === starts.length || offset < starts[hint + 1]!)) return hint;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    this.hint = low;
    return low;
  }
}

/**
 * The leading blanks (spaces and tabs) of the line `offset` is on, up to `offset`; a byte order mark is not part of
 * the first line's indent. Both model builders (text-reader.ts, statements.ts) give each directive this indent.
 */
export function indentAt(text: string, lines: LineIndex, offset: number): string {
  // From the line index, not lastIndexOf: searching back is quadratic when thousands of directives share one line.
  const newlineAfter = lines.lineStart(offset);
  let at = newlineAfter === 0 && text.startsWith('\uFEFF') ? 1 : newlineAfter;
  const lineStart = at;
  while (at < offset && (text[at] === ' ' || text[at] === '\t')) at++;
  return text.slice(lineStart, at);
}
