// Line and column of a text offset, computed from the text itself rather than asked of tree-sitter: every
// web-tree-sitter position read is a call into wasm, and a model of a large file needs several per directive.
// Rows and columns follow tree-sitter's own (test/model/tree-positions.test.ts checks they agree): a row ends at
// `\n` only (a `\r` is an ordinary column), and columns are UTF-16 code units, as web-tree-sitter's indices are.
import { interned } from './interned.js';
import type { Position, Span } from '../util/types.js';

export class LineIndex {
  /** Offsets at which each line starts; starts[0] is 0. */
  private readonly starts: Int32Array;
  /** The line of the last lookup: a model is built in document order, so the next offset is usually near it. */
  private hint = 0;
  /** The frame of every span of this text that is not in a unit of its own (SpanFrame). */
  readonly frame: SpanFrame = new SpanFrame(this, false);

  constructor(text: string, starts?: Int32Array) {
    this.starts = starts ?? lineStarts(text, 0, text.length, 1, 1);
  }

  /**
   * The index of `text`: the text `previous` indexes with its `start`..`oldEnd` replaced by a stretch `delta` longer.
   * Lines starting before the change are kept and those after it moved; only the new stretch is searched for breaks
   * (searching all of a large file at every keystroke was most of what its index cost).
   */
  static edited(previous: LineIndex, text: string, start: number, oldEnd: number, delta: number): LineIndex {
    const old = previous.starts;
    // A line starts after a break: one starting up to `start` follows a break before the change, one after `oldEnd`
    // a break after it.
    const kept = previous.lineOf(start) + 1;
    const movedFrom = previous.lineOf(oldEnd) + 1;
    const starts = lineStarts(text, start, oldEnd + delta, kept + old.length - movedFrom, kept);
    starts.set(old.subarray(0, kept));
    const firstMoved = starts.length - (old.length - movedFrom);
    for (let line = movedFrom; line < old.length; line++) starts[firstMoved + line - movedFrom] = old[line]! + delta;
    return new LineIndex(text, starts);
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
    return new OffsetSpan(startOffset, endOffset, this.frame);
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
 * The starts of the lines after the breaks in `text` from `from` to `to`, at `first` on in an array with `extra` more
 * places. Counted first, then filled: no interim array of a number per line.
 */
function lineStarts(text: string, from: number, to: number, extra: number, first: number): Int32Array {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(extra + count);
  let line = first;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) starts[line++] = at + 1;
  return starts;
}

/**
 * The leading blanks (spaces and tabs) of the line `offset` is on, up to `offset`; a byte order mark is not part of
 * the first line's indent. Both model builders (text-reader.ts, statements.ts) give each directive this indent.
 */
export function indentAt(text: string, lines: LineIndex, offset: number): string {
  // Nearly every statement starts its line: back over the blanks before it to the line break, no lookup of the line.
  let at = offset;
  let spaces = 0;
  for (; at > 0; at--) {
    const c = text.charCodeAt(at - 1);
    if (c === SPACE) spaces++;
    else if (c !== TAB) break;
  }
  if (at === 0 ? text.charCodeAt(0) !== BOM : text.charCodeAt(at - 1) === LF) return blanks(text, at, offset, spaces);
  if (at === 1 && text.charCodeAt(0) === BOM) return blanks(text, 1, offset, spaces);
  return indentOfLine(text, lines, offset);
}

/** The blanks [start, end) of `text`, `spaces` of them spaces. */
function blanks(text: string, start: number, end: number, spaces: number): string {
  // Nearly every indent is all spaces or all tabs: one of those strings, with no slice of the text to look up.
  const length = end - start;
  if (length < UNIFORM_INDENTS && (spaces === length || spaces === 0)) return (spaces === 0 ? TABS : SPACES)[length]!;
  return interned(text.slice(start, end));
}

/** indentAt for a statement after another on its line (or after a BOM's line's blanks): from the line's start. */
function indentOfLine(text: string, lines: LineIndex, offset: number): string {
  // From the line index, not lastIndexOf: searching back is quadratic when thousands of directives share one line.
  const newlineAfter = lines.lineStart(offset);
  let at = newlineAfter === 0 && text.startsWith('\uFEFF') ? 1 : newlineAfter;
  const lineStart = at;
  let spaces = 0;
  while (at < offset) {
    const c = text.charCodeAt(at);
    if (c === SPACE) spaces++;
    else if (c !== TAB) break;
    at++;
  }
  return blanks(text, lineStart, at, spaces);
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const BOM = 0xfeff;
const UNIFORM_INDENTS = 64;
const SPACES = Array.from({ length: UNIFORM_INDENTS }, (_, n) => ' '.repeat(n));
const TABS = Array.from({ length: UNIFORM_INDENTS }, (_, n) => '\t'.repeat(n));

/**
 * What a span's offsets are relative to: the index of the text it reads positions from, and how far the text moved
 * since the span was read. Each statement the incremental model re-reads as a whole (a statement of the file or of an
 * http, stream, mail or events block: a unit) has a frame of its own, shared by every span in it, so an edit before
 * it moves the unit by moving its frame alone (incremental-model.ts). Every other span has its index's frame.
 */
export class SpanFrame {
  shift = 0;

  constructor(
    public lines: LineIndex,
    /** A unit's own frame (moved as a whole), not its index's shared one (never moved). */
    readonly unit: boolean,
  ) {}

  /** Moves every span of the frame by `delta` into the text `lines` indexes, once (see OffsetSpan.carry). */
  carry(delta: number, lines: LineIndex): void {
    if (this.lines === lines) return;
    this.shift += delta;
    this.lines = lines;
  }
}

/**
 * A model's span: two offsets and the file's line index, with the line and column computed only when output asks
 * (a model holds several spans per directive, and a position object per end was most of its heap). Positions come
 * from the index of the text the span was read from, so a span kept unchanged across an edit before it stays right.
 * Its offsets and positions are getters: a copy made across a thread (structured clone) keeps none of them, so
 * whatever crosses one is turned into a plain span first (`plainSpan`).
 */
export class OffsetSpan implements Span {
  constructor(
    /** The offsets as read, before the frame's shift. */
    private start0: number,
    private end0: number,
    private frame: SpanFrame,
  ) {}

  get startOffset(): number {
    return this.start0 + this.frame.shift;
  }

  get endOffset(): number {
    return this.end0 + this.frame.shift;
  }

  /**
   * Moves this span alone by `delta` into the text `lines` indexes, once: an edit before it carries the model over to
   * the new text (incremental-model.ts), which is cheaper than a new span per statement after the edit of a large
   * file. The span leaves its frame for the new index's.
   */
  carry(delta: number, lines: LineIndex): void {
    const frame = this.frame;
    if (frame.lines === lines) return;
    this.start0 += frame.shift + delta;
    this.end0 += frame.shift + delta;
    this.frame = lines.frame;
  }

  /** Whether the span's positions are read from `lines` (it was read from, or carried into, that text). */
  readsFrom(lines: LineIndex): boolean {
    return this.frame.lines === lines;
  }

  /** The frame of a unit the span was read in, if it was (see SpanFrame). */
  unitFrame(): SpanFrame | undefined {
    return this.frame.unit ? this.frame : undefined;
  }

  get start(): Position {
    return this.frame.lines.position(this.startOffset);
  }

  get end(): Position {
    return this.frame.lines.position(this.endOffset);
  }
}

/** A span whose positions are plain properties, for whatever is copied or serialised. */
export function plainSpan(span: Span): Span {
  return { start: span.start, end: span.end, startOffset: span.startOffset, endOffset: span.endOffset };
}
