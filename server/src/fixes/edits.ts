// Text edits for fixes that keep the file's style: its indentation unit (2 or 4 spaces, a tab: whatever its nesting
// uses), its line ending (`\r\n` is kept) and its layout (a one-line block gets an inline insertion, not a new line
// that would land outside the block). A byte order mark at offset 0 is never moved or replaced.
//
//   insertLineAfter(d, text)          a new statement after d, at d's level
//   insertLineBefore(d, text)         a new statement before d, at d's level
//   insertIntoBlock(b, text, at)      a new statement as b's first ('start') or last ('end') statement, one level in
//   deleteDirectiveLine(d)            d removed; its whole line (trailing comment included) when it stands alone
//   replaceSpan(file, span, text)     a plain replacement
//   detectIndentUnit(file)            the file's indentation step
//   applyEdits(text, edits)           the edits of one file applied (sorted; overlaps rejected; same-offset inserts in
//                                     the given order, before a replacement starting there)
//
// `text` may hold several lines (`\n`-separated); each is indented and joined with the file's EOL.
import type { Span, TextEdit } from '../util/types.js';
import type { ConfigFile, Directive } from '../model/types.js';

const BOM = '\uFEFF';
/** White space, optionally followed by a comment, up to the end of the line. */
const BLANK_OR_COMMENT = /^[ \t]*(#.*)?$/;

/** Where the line holding `offset` starts; a byte order mark is not part of the first line. */
export function lineStartOf(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return start === 0 && text.startsWith(BOM) ? 1 : start;
}

/** Where the line holding `offset` ends: the offset of its `\r\n` or `\n`, or the end of the text. */
export function lineEndOf(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return newline > 0 && text[newline - 1] === '\r' ? newline - 1 : newline;
}

function eolLengthAt(text: string, lineEnd: number): number {
  if (text.startsWith('\r\n', lineEnd)) return 2;
  return text[lineEnd] === '\n' ? 1 : 0;
}

/** Only white space (a byte order mark included) before the directive on its line. */
export function startsLine(directive: Directive): boolean {
  const text = directive.file.text;
  // Back over the white space only, not to the line's start: that would be quadratic on a line of 100,000 directives.
  let at = directive.span.startOffset;
  while (at > 0 && text[at - 1] !== '\n' && /\s/.test(text[at - 1]!)) at--;
  return at === 0 || text[at - 1] === '\n';
}

// A file is immutable once built, and every fix inserting into it asks: read each file once.
const indentUnits = new WeakMap<ConfigFile, string>();

export function detectIndentUnit(file: ConfigFile): string {
  let unit = indentUnits.get(file);
  if (unit === undefined) {
    unit = countIndentUnit(file);
    indentUnits.set(file, unit);
  }
  return unit;
}

function countIndentUnit(file: ConfigFile): string {
  const counts = new Map<string, number>();
  const visit = (directives: readonly Directive[]) => {
    for (const directive of directives) {
      const parent = directive.parent;
      if (parent && startsLine(directive) && startsLine(parent) && directive.indent.startsWith(parent.indent)) {
        const step = directive.indent.slice(parent.indent.length);
        if (step !== '') counts.set(step, (counts.get(step) ?? 0) + 1);
      }
      visit(directive.children);
    }
  };
  visit(file.directives);
  const ranked = [...counts].sort(([a, m], [b, n]) => n - m || a.length - b.length);
  if (ranked[0]) return ranked[0][0];
  return /^\t/m.test(file.text) ? '\t' : '    ';
}

/** The indentation of a statement at `directive`'s level, also when it does not start its own line. */
function statementIndent(directive: Directive): string {
  if (startsLine(directive) || !directive.parent) return directive.indent;
  return innerIndent(directive.parent);
}

/** The indentation of statements inside `block`: its children's when one starts a line, else one step in. */
function innerIndent(block: Directive): string {
  const child = block.children.find(startsLine);
  return child ? child.indent : statementIndent(block) + detectIndentUnit(block.file);
}

function indented(lineText: string, indent: string, eol: string): string {
  return lineText
    .split(/\r?\n/)
    .map((line) => (line === '' ? '' : indent + line))
    .join(eol);
}

function edit(file: ConfigFile, startOffset: number, endOffset: number, newText: string): TextEdit {
  return { file: file.path, startOffset, endOffset, newText };
}

/** An insertion inside a line: spaced from its neighbours, all on that line. */
function inlineInsert(file: ConfigFile, offset: number, lineText: string): TextEdit {
  const before = offset > 0 && !/\s/.test(file.text[offset - 1]!) ? ' ' : '';
  const after = offset < file.text.length && /\s/.test(file.text[offset]!) ? '' : ' ';
  return edit(file, offset, offset, before + lineText.split(/\r?\n/).join(' ') + after);
}

export function insertLineAfter(directive: Directive, lineText: string): TextEdit {
  const file = directive.file;
  const end = directive.span.endOffset;
  const lineEnd = lineEndOf(file.text, end);
  if (!BLANK_OR_COMMENT.test(file.text.slice(end, lineEnd))) return inlineInsert(file, end, lineText);
  return edit(file, lineEnd, lineEnd, file.eol + indented(lineText, statementIndent(directive), file.eol));
}

export function insertLineBefore(directive: Directive, lineText: string): TextEdit {
  const file = directive.file;
  const start = directive.span.startOffset;
  if (!startsLine(directive)) return inlineInsert(file, start, lineText);
  const lineStart = lineStartOf(file.text, start);
  return edit(file, lineStart, lineStart, indented(lineText, directive.indent, file.eol) + file.eol);
}

export function insertIntoBlock(block: Directive, lineText: string, at: 'start' | 'end'): TextEdit {
  const file = block.file;
  const text = file.text;
  const span = block.blockSpan;
  const open = span?.startOffset ?? -1;
  const close = (span?.endOffset ?? 0) - 1;
  if (!span || text[open] !== '{' || text[close] !== '}' || close <= open) {
    throw new Error(`cannot insert into "${block.name}": its block is not closed`);
  }
  const indent = innerIndent(block);
  if (at === 'start') {
    const lineEnd = lineEndOf(text, open + 1);
    if (!BLANK_OR_COMMENT.test(text.slice(open + 1, lineEnd)) || lineEnd >= close) return inlineInsert(file, open + 1, lineText);
    return edit(file, lineEnd, lineEnd, file.eol + indented(lineText, indent, file.eol));
  }
  const lineStart = lineStartOf(text, close);
  if (text.slice(lineStart, close).trim() !== '' || lineStart <= open) return inlineInsert(file, close, lineText);
  return edit(file, lineStart, lineStart, indented(lineText, indent, file.eol) + file.eol);
}

export function replaceSpan(file: ConfigFile, span: Pick<Span, 'startOffset' | 'endOffset'>, newText: string): TextEdit {
  return edit(file, span.startOffset, span.endOffset, newText);
}

export function deleteDirectiveLine(directive: Directive): TextEdit {
  const file = directive.file;
  const text = file.text;
  const { startOffset: start, endOffset: end } = directive.span;
  const lineStart = lineStartOf(text, start);
  const lineEnd = lineEndOf(text, end);
  const alone = text.slice(lineStart, start).trim() === '' && BLANK_OR_COMMENT.test(text.slice(end, lineEnd));
  if (alone) return edit(file, lineStart, lineEnd + eolLengthAt(text, lineEnd), '');
  // Sharing the line: take the spaces after the directive, or before it when it ends the line.
  const spacesAfter = /^[ \t]*/.exec(text.slice(end))![0].length;
  if (end + spacesAfter < lineEnd) return edit(file, start, end + spacesAfter, '');
  // A loop: `/[ \t]*$/` on the line before it is quadratic in a long run of blanks that does not end it.
  let spacesBefore = 0;
  while (start - spacesBefore > lineStart && (text[start - spacesBefore - 1] === ' ' || text[start - spacesBefore - 1] === '\t')) {
    spacesBefore++;
  }
  return edit(file, start - spacesBefore, lineEnd, '');
}

/** Applies one file's edits. Throws when edits overlap, name several files, or fall outside the text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = '';
  let cursor = 0;
  for (const e of orderEdits(text, edits)) {
    result += text.slice(cursor, e.startOffset) + e.newText;
    cursor = e.endOffset;
  }
  return result + text.slice(cursor);
}

/**
 * The edits in the order applyEdits applies them (a byte order mark at 0 kept out of their ranges); throws what
 * applyEdits would throw. Costs nothing in the text's length, so a caller can ask whether edits apply to a large file.
 */
export function orderEdits(text: string, edits: readonly TextEdit[]): TextEdit[] {
  if (new Set(edits.map((e) => e.file)).size > 1) throw new Error('applyEdits: edits for more than one file');
  const floor = text.startsWith(BOM) ? 1 : 0;
  const ordered = edits
    .map((e, order) => {
      if (e.startOffset < 0 || e.endOffset < e.startOffset || e.endOffset > text.length) {
        throw new RangeError(`applyEdits: edit [${e.startOffset}, ${e.endOffset}) is outside the text`);
      }
      const startOffset = Math.max(e.startOffset, floor);
      return { ...e, startOffset, endOffset: Math.max(e.endOffset, startOffset), order };
    })
    .sort(
      (a, b) =>
        a.startOffset - b.startOffset ||
        Number(a.endOffset > a.startOffset) - Number(b.endOffset > b.startOffset) ||
        a.order - b.order,
    );
  let cursor = 0;
  for (const e of ordered) {
    if (e.startOffset < cursor) {
      throw new Error(`applyEdits: overlapping edits at offset ${e.startOffset} (an earlier edit ends at ${cursor})`);
    }
    cursor = e.endOffset;
  }
  return ordered;
}
