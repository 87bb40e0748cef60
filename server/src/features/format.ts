// The nginx formatter, headless: the CLI's `format` and the language server's document and range formatting both
// call formatDocument(). It indents blocks and normalises the white space between tokens, and nothing else: the
// tokens themselves (directives, arguments with their quoting, comments, template actions, Lua code) are never
// changed, and a file with a syntax error is not formatted at all (its structure would be a guess).
//
// Guarded at run time as well as by the tests: the output is parsed again and must have the same tokens as the input,
// both the tree's and, in a file nginx reads as it is (not a template), those of nginx's own tokenizer
// (model/nginx-tokens.ts, which does not share the grammar's mistakes), else the file is refused (a formatter bug
// must never reach a configuration).
import type { Tree } from 'web-tree-sitter';
import { buildConfigFile } from '../model/build.js';
import { withoutLuaIndentation } from '../model/lua-lines.js';
import { nginxTokens } from '../model/nginx-tokens.js';
import type { NginxParser } from '../parser/loader.js';
import { collectAtoms, UnexpectedNodeError } from './format-atoms.js';
import { applyEdits, layoutEdits, type FormatEdit, type FormatOptions } from './format-layout.js';

export { DEFAULT_FORMAT_OPTIONS, type FormatEdit, type FormatOptions } from './format-layout.js';

export type FormatResult =
  /** `edits` turn the input into `text`; none when it is formatted already. */
  | { kind: 'formatted'; text: string; edits: FormatEdit[] }
  /** Not formatted: `reason` says why, one line; `line`/`column` are 1-based, where the problem is. */
  | { kind: 'refused'; reason: string; line: number; column: number };

/**
 * Every leaf of the tree as `type text` (comments and Lua code without their trailing blanks, Lua code without the
 * blanks that start its code lines too, which re-indentation moves): what formatting must not change.
 */
export function tokenStream(tree: Tree, text: string): string[] {
  const tokens: string[] = [];
  const cursor = tree.walk();
  try {
    // Depth-first, iteratively: a deep tree must not exhaust the stack.
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      const type = cursor.nodeType;
      const leaf = text.slice(cursor.startIndex, cursor.endIndex);
      tokens.push(`${type} ${type === 'comment' ? leaf.trimEnd() : type === 'lua_code' ? withoutLuaIndentation(leaf.trimEnd()) : leaf}`);
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return tokens;
      }
    }
  } finally {
    cursor.delete();
  }
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, index) => token === b[index]);
}

function parseOrRefuse(parser: NginxParser, text: string): Tree | FormatResult {
  try {
    return parser.parse(text);
  } catch (error) {
    return { kind: 'refused', reason: error instanceof Error ? error.message : String(error), line: 1, column: 1 };
  }
}

/** Formats `text` (the file at `path`: its name tells a template's dialect). */
export function formatDocument(parser: NginxParser, path: string, text: string, options: FormatOptions): FormatResult {
  const tree = parseOrRefuse(parser, text);
  if (!('rootNode' in tree)) return tree;
  try {
    const file = buildConfigFile(path, text, tree);
    const problem = file.syntaxProblems[0];
    if (problem) {
      const { line, column } = problem.span.start;
      return { kind: 'refused', reason: `syntax error: ${problem.message}`, line: line + 1, column: column + 1 };
    }
    let edits: FormatEdit[];
    try {
      edits = layoutEdits(text, collectAtoms(tree), options);
    } catch (error) {
      if (!(error instanceof UnexpectedNodeError)) throw error;
      return internalError(`the formatter met an ${error.message}`);
    }
    const formatted = applyEdits(text, edits);
    if (edits.length > 0 && !sameTokensAfter(parser, tree, text, formatted, !file.isTemplate)) {
      return internalError('formatting would have changed the tokens');
    }
    return { kind: 'formatted', text: formatted, edits };
  } finally {
    tree.delete();
  }
}

/** `readByNginx`: a template is not (its rendered output is), so nginx's tokens of it say nothing. */
function sameTokensAfter(parser: NginxParser, before: Tree, text: string, formatted: string, readByNginx: boolean): boolean {
  const after = parseOrRefuse(parser, formatted);
  if (!('rootNode' in after)) return false;
  try {
    return (
      !after.rootNode.hasError &&
      sameTokens(tokenStream(before, text), tokenStream(after, formatted)) &&
      (!readByNginx || sameTokens(comparableNginxTokens(text), comparableNginxTokens(formatted)))
    );
  } finally {
    after.delete();
  }
}

/** nginx's tokens, a Lua body's without the blanks that start its code lines (the formatter moves a body). */
export function comparableNginxTokens(text: string): string[] {
  return nginxTokens(text).map((token) => (token.startsWith('lua ') ? `lua ${withoutLuaIndentation(token.slice(4))}` : token));
}

function internalError(what: string): FormatResult {
  return { kind: 'refused', reason: `internal error: ${what}; the file is left as it is (please report this)`, line: 1, column: 1 };
}

/**
 * The edits of a whole-document format that lie within [startOffset, endOffset] (range formatting: the lines the range
 * holds whole as a full format would leave them, nothing else touched). An edit is first narrowed to what it changes
 * (the white space between `{` and the next line's directive keeps its line break, so only the new indentation is
 * left); it is kept if it then lies within the range and every line it touches is whole in the range (from its first
 * to its last non-blank character): a line the range only cuts is left as it is. An empty range stands for its line.
 */
export function editsInRange(text: string, edits: readonly FormatEdit[], startOffset: number, endOffset: number): FormatEdit[] {
  let start = startOffset;
  let end = endOffset;
  if (start >= end) {
    start = lineStartAt(text, startOffset);
    end = lineEndAt(text, startOffset);
  }
  const kept: FormatEdit[] = [];
  for (const edit of edits) {
    const narrowed = narrowEdit(text, edit);
    if (!narrowed || narrowed.start < start || narrowed.end > end) continue;
    if (wholeLineIn(text, narrowed.start, start, end) && wholeLineIn(text, narrowed.end, start, end)) kept.push(narrowed);
  }
  return kept;
}

/** The edit without the text it leaves as it is at either end; undefined when it changes nothing. */
function narrowEdit(text: string, edit: FormatEdit): FormatEdit | undefined {
  const old = text.slice(edit.start, edit.end);
  const next = edit.newText;
  let prefix = 0;
  while (prefix < old.length && prefix < next.length && old[prefix] === next[prefix]) prefix++;
  let suffix = 0;
  while (suffix < old.length - prefix && suffix < next.length - prefix && old[old.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++;
  if (old.length === prefix + suffix && next.length === prefix + suffix) return undefined;
  return { start: edit.start + prefix, end: edit.end - suffix, newText: next.slice(prefix, next.length - suffix) };
}

function lineStartAt(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEndAt(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline;
}

/** Whether the line holding `offset` has all its non-blank text in [start, end] (a blank line: its start). */
function wholeLineIn(text: string, offset: number, start: number, end: number): boolean {
  const lineStart = lineStartAt(text, offset);
  const lineEnd = lineEndAt(text, offset);
  let first = lineStart;
  while (first < lineEnd && isBlank(text[first]!)) first++;
  let last = lineEnd;
  while (last > first && isBlank(text[last - 1]!)) last--;
  if (first === lineEnd) return lineStart >= start && lineStart <= end;
  return first >= start && last <= end;
}

function isBlank(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r';
}
