// Reads suppression comments out of a file's text:
//
//   # nginx-keepalive-ignore <id>[, <id>...]: reason     the findings of those rules that start on the next
//                                                         non-comment line are dropped
//   # nginx-keepalive-ignore-file <id>[, <id>...]: reason those rules' findings anywhere in the file are dropped
//
// Only whole-line `#` comments count (a trailing comment after a directive is not a suppression), and lines are read
// as text, whatever the parser makes of them: a file with syntax errors can still silence a rule. The reason is
// optional but encouraged; it is kept for nothing but the reader.
import type { Span } from '../util/types.js';

export type SuppressionScope = 'line' | 'file';

export interface SuppressedRule {
  /** As written; may be an unknown or malformed id (reported, never matched). */
  id: string;
  span: Span;
}

export interface SuppressionComment {
  scope: SuppressionScope;
  /** 0-based line of the comment. */
  line: number;
  /** For `line` scope: the 0-based line it applies to; undefined when only comments follow it. */
  targetLine: number | undefined;
  rules: SuppressedRule[];
  /** The comment from `#` to the end of its line. */
  span: Span;
  /** The whole line, from its start (after a byte order mark) to its end, line break excluded. */
  lineStartOffset: number;
  lineEndOffset: number;
}

export const SUPPRESSION_MARKER = 'nginx-keepalive-ignore';

// `(?![\w-])` keeps `nginx-keepalive-ignored` or `nginx-keepalive-ignore-lines` from reading as a suppression.
const SUPPRESSION = /^([ \t]*)(#[ \t]*nginx-keepalive-ignore(-file)?(?![\w-]))(.*)$/;
const COMMENT_LINE = /^[ \t]*#/;

interface Line {
  text: string;
  /** Offset of the line's first character (after a byte order mark on the first line). */
  start: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = text.startsWith('\uFEFF') ? 1 : 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const content = text.slice(start, end);
    // After a final line break there is no further line (a suppression on the last line suppresses nothing).
    if (newline === -1 && content === '' && lines.length > 0) return lines;
    lines.push({ text: content.endsWith('\r') ? content.slice(0, -1) : content, start });
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

function spanOn(line: number, lineStart: number, startColumn: number, endColumn: number): Span {
  return {
    start: { line, column: startColumn },
    end: { line, column: endColumn },
    startOffset: lineStart + startColumn,
    endOffset: lineStart + endColumn,
  };
}

/**
 * The rule ids before the first `:` (the reason follows it) or `#` (another comment follows, such as a fixture's
 * `# expect: unused-suppression`), each with its span; empty entries, as in `a,,b`, are skipped.
 */
function readRules(rest: string, restColumn: number, line: number, lineStart: number): SuppressedRule[] {
  const end = rest.search(/[:#]/);
  const list = end === -1 ? rest : rest.slice(0, end);
  const rules: SuppressedRule[] = [];
  const entry = /[^,\s]+/g;
  for (let match = entry.exec(list); match; match = entry.exec(list)) {
    const column = restColumn + match.index;
    rules.push({ id: match[0], span: spanOn(line, lineStart, column, column + match[0].length) });
  }
  return rules;
}

function nextNonCommentLine(lines: readonly Line[], after: number): number | undefined {
  for (let index = after + 1; index < lines.length; index++) {
    if (!COMMENT_LINE.test(lines[index]!.text)) return index;
  }
  return undefined;
}

export function parseSuppressionComments(text: string): SuppressionComment[] {
  // Most files have none: skip the line split for them.
  if (!text.includes(SUPPRESSION_MARKER)) return [];
  const lines = splitLines(text);
  const comments: SuppressionComment[] = [];
  lines.forEach((line, index) => {
    const match = SUPPRESSION.exec(line.text);
    if (!match) return;
    const [, indent, head, fileFlag, rest] = match as unknown as [string, string, string, string | undefined, string];
    const scope: SuppressionScope = fileFlag ? 'file' : 'line';
    const restColumn = indent.length + head.length;
    comments.push({
      scope,
      line: index,
      targetLine: scope === 'line' ? nextNonCommentLine(lines, index) : undefined,
      rules: readRules(rest, restColumn, index, line.start),
      span: spanOn(index, line.start, indent.length, line.text.length),
      lineStartOffset: line.start,
      lineEndOffset: line.start + line.text.length,
    });
  });
  return comments;
}
