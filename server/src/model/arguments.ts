// Arguments (`word` and `string` nodes) as nginx's tokenizer delivers them to a directive.
import type { Node } from 'web-tree-sitter';
import type { Argument, Variable } from './types.js';
import { spanOfNode } from './span.js';

const TEMPLATE_ACTION_TYPES = new Set(['template_control', 'template_expression', 'template_comment']);

export function isTemplateAction(node: Node): boolean {
  return TEMPLATE_ACTION_TYPES.has(node.type);
}

/**
 * Resolves backslash escapes the way ngx_conf_read_token does for every token, quoted or not: `\"`, `\'` and `\\`
 * lose the backslash, `\t` `\r` `\n` become control characters, and any other `\x` is kept as written.
 */
export function resolveEscapes(raw: string): string {
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

function quoteOf(node: Node): false | '"' | "'" {
  if (node.type !== 'string') return false;
  return node.text.startsWith("'") ? "'" : '"';
}

/** Offsets of the token's content: inside the quotes of a string (a missing closing quote is not stripped). */
function contentRange(node: Node, quoted: false | '"' | "'"): [number, number] {
  if (!quoted) return [node.startIndex, node.endIndex];
  const last = node.lastChild;
  const closed = last !== null && !last.isNamed && last.type === quoted && !last.isMissing && last.startIndex > node.startIndex;
  return [node.startIndex + 1, closed ? node.endIndex - 1 : node.endIndex];
}

/** The value nginx sees; template actions are copied verbatim because their text is not nginx syntax. */
function valueOf(node: Node, text: string, quoted: false | '"' | "'"): string {
  const [start, end] = contentRange(node, quoted);
  let value = '';
  let cursor = start;
  for (const part of node.namedChildren) {
    if (!isTemplateAction(part)) continue;
    value += resolveEscapes(text.slice(cursor, part.startIndex)) + text.slice(part.startIndex, part.endIndex);
    cursor = part.endIndex;
  }
  return value + resolveEscapes(text.slice(cursor, Math.max(cursor, end)));
}

export function variableName(raw: string): string {
  return raw.replace(/^\$\{?/, '').replace(/\}$/, '');
}

function variablesOf(node: Node): Variable[] {
  return node.namedChildren
    .filter((part) => part.type === 'variable')
    .map((part) => ({ name: variableName(part.text), span: spanOfNode(part) }));
}

/** `text` is the whole file's text: node offsets index into it. */
export function buildArgument(node: Node, text: string): Argument {
  const quoted = quoteOf(node);
  const raw = text.slice(node.startIndex, node.endIndex);
  return {
    raw,
    value: valueOf(node, text, quoted),
    quoted,
    span: spanOfNode(node),
    variables: variablesOf(node),
    templated: isTemplateAction(node) || node.namedChildren.some(isTemplateAction),
  };
}
