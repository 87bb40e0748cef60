// Pure text arithmetic the server needs: tree-sitter edits for incremental re-parses, clamped ranges, and the
// smallest single replacement that turns one text into another.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver/node.js';
import { Edit, type Point } from 'web-tree-sitter';

/** A range inside the document: positions past a line's or the document's end clamp, and start comes first. */
export function clampRange(document: TextDocument, range: Range): Range {
  const a = document.offsetAt(range.start);
  const b = document.offsetAt(range.end);
  return { start: document.positionAt(Math.min(a, b)), end: document.positionAt(Math.max(a, b)) };
}

/** Tree-sitter's row/column of `offset`: rows are counted by '\n' alone (the LSP also breaks lines at a lone '\r'). */
export function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let newline = text.indexOf('\n'); newline !== -1 && newline < offset; newline = text.indexOf('\n', newline + 1)) {
    row++;
    lineStart = newline + 1;
  }
  return { row, column: offset - lineStart };
}

/** Where `inserted`, put at `start`, ends. */
export function advancePoint(start: Point, inserted: string): Point {
  const lastNewline = inserted.lastIndexOf('\n');
  if (lastNewline === -1) return { row: start.row, column: start.column + inserted.length };
  let newlines = 0;
  for (let at = inserted.indexOf('\n'); at !== -1; at = inserted.indexOf('\n', at + 1)) newlines++;
  return { row: start.row + newlines, column: inserted.length - lastNewline - 1 };
}

/**
 * The tree-sitter edit for replacing `range` (already clamped) of `document` with `inserted`. Indices and columns are
 * UTF-16 code units, as web-tree-sitter counts them for JavaScript strings. `lspRowsMatch` says the text has no '\r',
 * so the LSP's line numbers are tree-sitter's rows and the document's line index can be used instead of a count.
 */
export function treeEditOf(document: TextDocument, range: Range, inserted: string, lspRowsMatch: boolean): Edit {
  const startIndex = document.offsetAt(range.start);
  const oldEndIndex = document.offsetAt(range.end);
  const text = document.getText();
  const toPoint = (offset: number, position: Range['start']): Point =>
    lspRowsMatch ? { row: position.line, column: position.character } : pointAt(text, offset);
  const startPosition = toPoint(startIndex, range.start);
  return new Edit({
    startIndex,
    oldEndIndex,
    newEndIndex: startIndex + inserted.length,
    startPosition,
    oldEndPosition: toPoint(oldEndIndex, range.end),
    newEndPosition: advancePoint(startPosition, inserted),
  });
}

export interface Replacement {
  startOffset: number;
  endOffset: number;
  newText: string;
}

/** One replacement from `before` to `after`: the differing middle, so an editor keeps the cursor and folds elsewhere. */
export function minimalReplacement(before: string, after: string): Replacement | undefined {
  if (before === after) return undefined;
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  // Never split a CRLF or a surrogate pair: a position between their halves is not one an editor can address.
  if (prefix > 0 && splitsPair(before, prefix - 1)) prefix--;
  if (suffix > 0 && splitsPair(before, before.length - suffix - 1)) suffix--;
  return { startOffset: prefix, endOffset: before.length - suffix, newText: after.slice(prefix, after.length - suffix) };
}

/** True when the characters at `index` and `index + 1` of `text` belong together (CR LF, or a surrogate pair). */
function splitsPair(text: string, index: number): boolean {
  const first = text.charCodeAt(index);
  const second = text.charCodeAt(index + 1);
  return (first === 13 && second === 10) || (first >= 0xd800 && first <= 0xdbff && second >= 0xdc00 && second <= 0xdfff);
}
