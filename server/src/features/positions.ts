// LSP positions (zero-based line, UTF-16 character) <-> offsets into a text. The LSP counts `\r\n`, `\n` and a lone
// `\r` as line breaks; JavaScript string indices are UTF-16 code units already, so no re-encoding is needed.
import type { Span } from '../util/types.js';

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export class LineIndex {
  /** Offset where each line starts; lineStarts[0] is 0. */
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.lineStarts.push(i + 1);
      } else if (ch === 10 /* \n */) {
        this.lineStarts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  lineStart(line: number): number {
    return this.lineStarts[Math.max(0, Math.min(line, this.lineStarts.length - 1))]!;
  }

  /** The offset just past the line's last character, its line break excluded. */
  lineContentEnd(line: number): number {
    if (line >= this.lineStarts.length - 1) return this.text.length;
    let end = this.lineStarts[line + 1]!;
    if (this.text.charCodeAt(end - 1) === 10) end--;
    if (this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** Clamped like the LSP asks: a character past the line's end means the end of the line. */
  offsetAt(position: LspPosition): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line]!;
    return Math.min(start + Math.max(0, position.character), this.lineContentEnd(position.line));
  }

  positionAt(offset: number): LspPosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low, character: clamped - this.lineStarts[low]! };
  }

  rangeOf(span: Pick<Span, 'startOffset' | 'endOffset'>): LspRange {
    return { start: this.positionAt(span.startOffset), end: this.positionAt(span.endOffset) };
  }
}

// One index per file model (models are immutable): a references request converts many spans of the same few files.
const indexes = new WeakMap<{ text: string }, LineIndex>();

export function lineIndexOf(file: { text: string }): LineIndex {
  let index = indexes.get(file);
  if (!index) {
    index = new LineIndex(file.text);
    indexes.set(file, index);
  }
  return index;
}
