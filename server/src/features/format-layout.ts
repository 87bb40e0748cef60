// The formatter's layout: given the atoms of a file (format-atoms.ts), rewrites only the white space between them.
// Line breaks stay where they are, so a line of the output is a line of the input (blank lines apart), and range
// formatting is the subset of the edits that touch the range's lines.
//
// - A line that opens a statement, or starts with a block's `}`, is indented by its block depth.
//   A Jinja2 tag (`{% %}`) written at column 0 stays there: Ansible keeps the blanks before it in what it renders.
// - A line that continues a statement (`log_format main '...'` over several lines) stays aligned with the argument
//   of the statement's first line it was aligned with; else it keeps its offset from the statement's first column
//   when it had one, so hand alignment survives re-indentation; otherwise it gets one level.
// - Between atoms on one line: one space; none before `;`; one inserted where nginx needs none but readers do
//   (`server{` → `server {`, `{return 200;}` → `{ return 200; }`). Never inserted next to a template action, whose
//   gluing to its neighbours is the author's (it may render into the middle of a token).
// - A `*_by_lua_block` body's code lines move by as many columns as its directive does (lines inside Lua strings and
//   long brackets never change; a body indented with tabs, or that cannot move exactly, is kept as written).
// - Inside map-like bodies (atom.keepSpacing) the spacing within a line is kept as written, only indentation changes.
// - Runs of blank lines become one blank line; blank lines at the start and end of the file go; trailing white space
//   goes (outside strings, Lua code and multi-line template actions, which are atoms and never touched); the file ends
//   with exactly one line break.
// - White space holding a lone carriage return is kept as it is: nginx reads no line break there, an editor shows one.
import { detectEol } from '../model/build.js';
import { luaCodeLineStarts } from '../model/lua-lines.js';
import type { Atom } from './format-atoms.js';

export interface FormatOptions {
  /** Indent with tabs or spaces. */
  indentStyle: 'space' | 'tab';
  /** Columns per indentation level with spaces. */
  indentSize: number;
  /** Columns a tab stands for: measures the input's indentation, and is one level with tabs. */
  tabWidth: number;
}

export const DEFAULT_FORMAT_OPTIONS: FormatOptions = { indentStyle: 'space', indentSize: 4, tabWidth: 4 };

/** Replace the original text from `start` to `end` (offsets) with `newText`. Edits never overlap; in text order. */
export interface FormatEdit {
  start: number;
  end: number;
  newText: string;
}

const PLAIN_SPACE = /^[ \t\n]*$/;

function isPlainSpace(gap: string): boolean {
  // `\r` only as part of `\r\n`: a lone one is no line break for nginx, though an editor shows one.
  return PLAIN_SPACE.test(gap.replaceAll('\r\n', '\n'));
}

function countNewlines(gap: string): number {
  let count = 0;
  for (let i = gap.indexOf('\n'); i !== -1; i = gap.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * Trailing blanks of a comment or a Lua body are white space, not part of what it says. A CR among them: a Lua body
 * that ends in a `--` comment holds the CR of its CRLF (the grammar's Lua comment runs to the LF).
 */
function trimmedEnd(text: string, atom: Atom): number {
  if (atom.kind !== 'comment' && atom.kind !== 'lua') return atom.end;
  let end = atom.end;
  while (end > atom.start && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '\r')) end--;
  return end;
}

class Layout {
  readonly edits: FormatEdit[] = [];
  /** The visual column the output is at. */
  private column = 0;
  private readonly newColumns: number[] = [];
  private readonly originalColumns = new Map<number, number>();
  private readonly firstLines = new Map<number, Map<number, number>>();
  private readonly levelWidth: number;

  constructor(
    private readonly text: string,
    private readonly atoms: readonly Atom[],
    private readonly options: FormatOptions,
    private readonly eol: string,
  ) {
    this.levelWidth = options.indentStyle === 'tab' ? options.tabWidth : options.indentSize;
  }

  run(): FormatEdit[] {
    const { text, atoms } = this;
    if (atoms.length === 0) {
      // Nothing but white space (and possibly nothing at all): an empty file.
      if (isPlainSpace(text)) this.replace(0, text.length, '');
      return this.edits;
    }
    let previousEnd = 0;
    atoms.forEach((atom, index) => {
      const gap = text.slice(previousEnd, atom.start);
      const spacing = index === 0 ? this.leadingSpace(gap, index) : this.between(atoms[index - 1]!, atom, index, gap);
      this.emit(previousEnd, atom.start, spacing);
      this.newColumns[index] = this.column;
      const end = trimmedEnd(text, atom);
      this.advance(atom.kind === 'lua' ? this.moveLuaBody(atom.start, end, atom.statement) : text.slice(atom.start, end));
      previousEnd = end;
    });
    const tail = text.slice(previousEnd);
    this.emit(previousEnd, text.length, isPlainSpace(tail) ? this.eol : tail);
    return this.edits;
  }

  private leadingSpace(gap: string, index: number): string {
    return isPlainSpace(gap) ? this.indentation(index, gap) : gap;
  }

  private between(previous: Atom, next: Atom, index: number, gap: string): string {
    if (!isPlainSpace(gap)) return gap;
    const newlines = countNewlines(gap);
    if (newlines > 0) return this.eol.repeat(Math.min(newlines, 2)) + this.indentation(index, gap);
    if (previous.keepSpacing || next.keepSpacing) return gap;
    if (next.kind === 'semicolon') return '';
    if (gap === '') return needsSpace(previous, next) ? ' ' : '';
    return ' ';
  }

  /** The indentation of atom `index`, which starts a line; `gap` is the white space before it. */
  private indentation(index: number, gap: string): string {
    const atom = this.atoms[index]!;
    const written = gap.slice(gap.lastIndexOf('\n') + 1);
    if (written === '' && atom.startsStatement && this.isJinjaTag(atom)) return '';
    if (atom.startsStatement || atom.kind === 'close') return this.render(atom.depth * this.levelWidth);
    const statement = atom.statement;
    const column = this.measure(written, 0);
    const alignedWith = this.firstLineColumns(statement).get(column);
    if (alignedWith !== undefined) return this.render(this.newColumns[alignedWith]!);
    const offset = column - this.originalColumn(statement);
    return this.render(this.newColumns[statement]! + (offset > 0 ? offset : this.levelWidth));
  }

  /**
   * The arguments on the first line of statement `index`, by the visual column they start at in the input: a
   * continuation line aligned with one of them (`log_format main '...'` and its strings) stays aligned with it when
   * the spacing before it changes. Computed once per statement, in one pass over its first line.
   */
  private firstLineColumns(index: number): Map<number, number> {
    let columns = this.firstLines.get(index);
    if (columns !== undefined) return columns;
    columns = new Map();
    const { atoms, text } = this;
    const lineEnd = text.indexOf('\n', atoms[index]!.start);
    let column = this.originalColumn(index);
    for (let i = index + 1; i < atoms.length && atoms[i]!.statement === index; i++) {
      const start = atoms[i]!.start;
      if (lineEnd !== -1 && start > lineEnd) break;
      column = this.measure(text.slice(atoms[i - 1]!.start, start), column);
      columns.set(column, i);
    }
    this.firstLines.set(index, columns);
    return columns;
  }

  /**
   * A Jinja2 tag (`{% %}`, `{# #}`) standing between statements. Ansible renders with `lstrip_blocks` off, so the
   * blanks before a tag stay in the output: one written at column 0 stays there, lest the rendered lines be indented.
   */
  private isJinjaTag(atom: Atom): boolean {
    if (atom.kind !== 'template') return false;
    const open = this.text.slice(atom.start, atom.start + 2);
    return open === '{%' || open === '{#';
  }

  /**
   * Moves the Lua code lines of the body from `start` to `end` by as many columns as its directive (`statement`)
   * moved, so the body keeps its place under the directive; returns the body as written out. A line inside a Lua
   * string or long bracket is never touched (luaCodeLineStarts), and the body is left as it is when a line cannot
   * move exactly: one indented with tabs (its columns depend on the reader's tab width), or one with too few blanks.
   */
  private moveLuaBody(start: number, end: number, statement: number): string {
    const body = this.text.slice(start, end);
    const delta = this.newColumns[statement]! - this.originalColumn(statement);
    if (delta === 0) return body;
    const moves: FormatEdit[] = [];
    for (const lineStart of luaCodeLineStarts(body)) {
      let code = lineStart;
      while (body[code] === ' ') code++;
      const next = body[code];
      if (next === undefined || next === '\n' || next === '\r') continue; // a blank line: nothing to move
      if (next === '\t' || code - lineStart < -delta) return body;
      const at = start + lineStart;
      moves.push(delta > 0 ? { start: at, end: at, newText: ' '.repeat(delta) } : { start: at, end: at - delta, newText: '' });
    }
    for (const move of moves) this.edits.push(move);
    return applyEdits(body, moves.map((move) => ({ ...move, start: move.start - start, end: move.end - start })));
  }

  /** The visual column at which atom `index` starts in the input. */
  private originalColumn(index: number): number {
    let column = this.originalColumns.get(index);
    if (column === undefined) {
      const start = this.atoms[index]!.start;
      column = this.measure(this.text.slice(this.text.lastIndexOf('\n', start - 1) + 1, start), 0);
      this.originalColumns.set(index, column);
    }
    return column;
  }

  private render(column: number): string {
    if (this.options.indentStyle === 'space') return ' '.repeat(column);
    const width = this.options.tabWidth;
    return '\t'.repeat(Math.floor(column / width)) + ' '.repeat(column % width);
  }

  /** The visual column after `piece` when it starts at `column`. */
  private measure(piece: string, column: number): number {
    const width = this.options.tabWidth;
    for (const char of piece) column = char === '\t' ? (Math.floor(column / width) + 1) * width : column + 1;
    return column;
  }

  private advance(piece: string): void {
    const newline = piece.lastIndexOf('\n');
    this.column = newline === -1 ? this.measure(piece, this.column) : this.measure(piece.slice(newline + 1), 0);
  }

  /**
   * Replaces a gap. One that ends a line is two edits, the line's trailing blanks and then the line break with what
   * follows it, so each edit belongs to one line (range formatting picks edits by line).
   */
  private emit(start: number, end: number, newText: string): void {
    const gap = this.text.slice(start, end);
    const newline = gap.indexOf('\n');
    if (newline !== -1 && newText.startsWith(this.eol)) {
      const lineBreak = start + (newline > 0 && gap[newline - 1] === '\r' ? newline - 1 : newline);
      this.replace(start, lineBreak, '');
      this.replace(lineBreak, end, newText);
    } else {
      this.replace(start, end, newText);
    }
    this.advance(newText);
  }

  private replace(start: number, end: number, newText: string): void {
    if (this.text.slice(start, end) !== newText) this.edits.push({ start, end, newText });
  }
}

/** Atoms glued together that read better apart; nginx tokenizes both the same. */
function needsSpace(previous: Atom, next: Atom): boolean {
  if (previous.kind === 'template' || next.kind === 'template' || next.kind === 'semicolon') return false;
  if (previous.kind === 'open') return next.kind !== 'close';
  if (previous.kind === 'semicolon' || previous.kind === 'close') return true;
  return next.kind === 'open' || next.kind === 'lua';
}

/** The edits that lay the file out, with the line break of the first one it lays out (layoutEol). */
export function layoutEdits(text: string, atoms: readonly Atom[], options: FormatOptions): FormatEdit[] {
  return new Layout(text, atoms, options, layoutEol(text, atoms)).run();
}

/**
 * The line break the layout writes: that of the first line break it lays out itself, in the white space between two
 * atoms or after the last one. Not one inside a string, a Lua body or a template action (kept as written, whatever
 * the rest uses), nor one of the blank lines at the start (dropped): the output's first laid-out break is then this
 * same one, now written with this line ending, so formatting the output again picks the same (idempotence). With
 * no such break, the file's first line break anywhere (LF if none): the output's only laid-out break is then the one
 * that ends the file, written so.
 */
export function layoutEol(text: string, atoms: readonly Atom[]): '\n' | '\r\n' {
  for (let index = 1; index <= atoms.length; index++) {
    const start = trimmedEnd(text, atoms[index - 1]!);
    const end = index < atoms.length ? atoms[index]!.start : text.length;
    const gap = text.slice(start, end);
    const newline = gap.indexOf('\n');
    if (newline === -1 || !isPlainSpace(gap)) continue;
    return newline > 0 && gap[newline - 1] === '\r' ? '\r\n' : '\n';
  }
  return detectEol(text);
}

export function applyEdits(text: string, edits: readonly FormatEdit[]): string {
  const parts: string[] = [];
  let position = 0;
  for (const edit of edits) {
    parts.push(text.slice(position, edit.start), edit.newText);
    position = edit.end;
  }
  parts.push(text.slice(position));
  return parts.join('');
}
