// Arguments (`word` and `string` nodes) as nginx's tokenizer delivers them to a directive.
//
// Read with a tree cursor, and into a node's parts only when they can matter: a variable starts with `$` and a template
// action with `{{`, `{%` or `{#`, so a token with neither has nothing but literal text inside. A string's closing quote is checked
// by looking, unless the tree has no errors at all (then no quote is missing).
import type { TreeCursor } from 'web-tree-sitter';
import { noItems } from './exact-array.js';
import type { LineIndex } from './line-index.js';
import type { Argument, Variable } from './types.js';

const TEMPLATE_ACTION_TYPES: ReadonlySet<string> = new Set(['template_control', 'template_expression', 'template_comment']);

export function isTemplateActionType(type: string): boolean {
  return TEMPLATE_ACTION_TYPES.has(type);
}

/**
 * Resolves backslash escapes the way ngx_conf_read_token does for every token, quoted or not: `\"`, `\'` and `\\`
 * lose the backslash, `\t` `\r` `\n` become control characters, and any other `\x` is kept as written.
 */
export function resolveEscapes(raw: string): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\([\s\S])/g, (whole, escaped: string) => {
    switch (escaped) {
      case '"':
      case "'":
      case '\\':
        return escaped;
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'n':
        return '\n';
      default:
        return whole;
    }
  });
}

export function variableName(raw: string): string {
  return raw.replace(/^\$\{?/, '').replace(/\}$/, '');
}

/** What building an argument needs besides the cursor. */
export interface TokenSource {
  /** The whole file's text: node offsets index into it. */
  text: string;
  lines: LineIndex;
  /** False when the tree has no ERROR or MISSING node anywhere. */
  hasErrors: boolean;
}

interface Part {
  type: string;
  startIndex: number;
  endIndex: number;
}

interface Parts {
  named: Part[];
  /** Whether the last child is the closing quote `quoted` (present, and not the opening one). */
  closed: boolean;
}

/** The children of the cursor's node (starting at `start`), leaving the cursor where it was. */
function readParts(cursor: TreeCursor, start: number, quoted: false | '"' | "'"): Parts {
  const named: Part[] = [];
  if (!cursor.gotoFirstChild()) return { named, closed: false };
  for (;;) {
    const type = cursor.nodeType;
    if (type === 'variable' || TEMPLATE_ACTION_TYPES.has(type)) {
      named.push({ type, startIndex: cursor.startIndex, endIndex: cursor.endIndex });
    }
    if (!cursor.gotoNextSibling()) break;
  }
  const closed =
    quoted !== false &&
    !cursor.nodeIsNamed &&
    cursor.nodeType === quoted &&
    !cursor.nodeIsMissing &&
    cursor.startIndex > start;
  cursor.gotoParent();
  return { named, closed };
}

/** The value nginx sees; template actions are copied verbatim because their text is not nginx syntax. */
function valueOf(text: string, start: number, end: number, templates: readonly Part[]): string {
  let value = '';
  let cursor = start;
  for (const part of templates) {
    value += resolveEscapes(text.slice(cursor, part.startIndex)) + text.slice(part.startIndex, part.endIndex);
    cursor = part.endIndex;
  }
  return value + resolveEscapes(text.slice(cursor, Math.max(cursor, end)));
}

/**
 * Builds the argument at the cursor: a `word` or `string` node (`type`) spanning [start, end). The cursor does not
 * move.
 */
export function readArgument(cursor: TreeCursor, type: string, start: number, end: number, source: TokenSource): Argument {
  const { text, lines } = source;
  const raw = text.slice(start, end);
  const quoted = type !== 'string' ? false : raw.startsWith("'") ? "'" : '"';
  const span = lines.span(start, end);
  const templated = TEMPLATE_ACTION_TYPES.has(type);
  const mayHaveParts = raw.includes('$') || raw.includes('{{') || raw.includes('{%') || raw.includes('{#');
  if (!mayHaveParts && !(quoted && source.hasErrors)) {
    // Literal text only (most arguments): no parts to read, and a string's closing quote is there.
    const value = resolveEscapes(quoted ? text.slice(start + 1, Math.max(start + 1, end - 1)) : raw);
    return { raw, value, quoted, span, variables: noItems(), templated };
  }
  const parts = readParts(cursor, start, quoted);
  const templates = parts.named.filter((part) => part.type !== 'variable');
  const variables: Variable[] = parts.named
    .filter((part) => part.type === 'variable')
    .map((part) => ({ name: variableName(text.slice(part.startIndex, part.endIndex)), span: lines.span(part.startIndex, part.endIndex) }));
  const contentStart = quoted ? start + 1 : start;
  const contentEnd = quoted && parts.closed ? end - 1 : end;
  return {
    raw,
    value: valueOf(text, contentStart, contentEnd, templates),
    quoted,
    span,
    // map() made it exact-length already; only an empty one is swapped for the shared one.
    variables: variables.length > 0 ? variables : noItems(),
    templated: templated || templates.length > 0,
  };
}
