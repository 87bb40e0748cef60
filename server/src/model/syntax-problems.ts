// Turns tree-sitter's ERROR and MISSING nodes into one problem per error region, worded as nginx words them.
import type { Node, Tree } from 'web-tree-sitter';
import type { Span } from '../util/types.js';
import { LineIndex } from './line-index.js';
import { spanOfNode } from './span.js';
import type { SyntaxProblem } from './types.js';

const MAX_TOKEN_IN_MESSAGE = 24;

function quoteToken(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const shown = firstLine.length > MAX_TOKEN_IN_MESSAGE ? `${firstLine.slice(0, MAX_TOKEN_IN_MESSAGE)}…` : firstLine;
  return `"${shown}"`;
}

function firstLeaf(node: Node): Node {
  let current = node;
  while (current.childCount > 0) {
    const child = current.child(0);
    if (!child) break;
    current = child;
  }
  return current;
}

/** The parsed text, with a line index made only when a problem needs a position no node has. */
class Source {
  private index: LineIndex | undefined;
  constructor(readonly text: string) {}

  /** The span of `length` characters at `offset`, for places no node covers (the brace after a missing `;`). */
  span(offset: number, length = 0): Span {
    this.index ??= new LineIndex(this.text);
    return this.index.span(offset, offset + length);
  }

  /** 1-based, as messages say it. */
  lineOf(offset: number): number {
    return this.span(offset).start.line + 1;
  }

  /**
   * nginx reports a file that ends too early on the line its tokenizer stands on then: the file's last line, which is
   * the empty one after a final newline (`unexpected end of file, expecting "}"` on line 8 of a 7-line file).
   */
  endOfFile(): Span {
    return this.span(this.text.length);
  }

  /** Where the next token starts at or after `offset`, past white space and comments, as nginx's tokenizer skips them. */
  nextToken(offset: number): number {
    const text = this.text;
    let at = offset;
    while (at < text.length) {
      const c = text[at]!;
      if (c === '#') {
        const newline = text.indexOf('\n', at);
        at = newline === -1 ? text.length : newline;
      } else if (SPACE.includes(c)) {
        at++;
      } else {
        break;
      }
    }
    return at;
  }

  /** Only white space and comments from `offset` on: nginx's tokenizer meets the end of the file next. */
  endsAt(offset: number): boolean {
    return this.nextToken(offset) === this.text.length;
  }
}

/** nginx's white space (a form feed or vertical tab is text there). */
const SPACE = ' \t\n\r';

function isAtEndOfFile(node: Node, source: Source): boolean {
  return source.endsAt(node.startIndex);
}

function isQuote(node: Node): boolean {
  return node.type === '"' || node.type === "'";
}

/**
 * A MISSING token, worded and placed as nginx reports the same text: a `;` missing before a `}` is nginx's
 * `unexpected "}"` on the brace's line; a `;` or `}` missing at the end of the file is its "unexpected end of file" on
 * the file's last line.
 */
function missingProblem(node: Node, source: Source): SyntaxProblem {
  switch (node.type) {
    case ';': {
      if (isAtEndOfFile(node, source)) return { message: EXPECTING_STATEMENT_END, span: source.endOfFile() };
      const next = source.nextToken(node.startIndex);
      if (source.text[next] === '}') {
        const missingLine = source.lineOf(node.startIndex);
        const note = missingLine === source.lineOf(next) ? '' : ` (line ${missingLine} lacks its ";")`;
        return { message: `unexpected "}"${note}`, span: source.span(next, 1) };
      }
      return { message: 'missing ";"', span: spanOfNode(node) };
    }
    case '}':
      return isAtEndOfFile(node, source)
        ? { message: 'unexpected end of file, expecting "}"', span: source.endOfFile() }
        : { message: 'missing "}"', span: spanOfNode(node) };
    case '"':
    case "'":
      return unterminatedStringProblem(missingSpan(node), source);
    case ')':
      return { message: 'missing ")" in condition', span: spanOfNode(node) };
    case '}}':
    case '-}}': {
      const comment = node.parent?.type === 'template_comment' ? node.parent : undefined;
      const opener = comment?.child(0);
      if (comment && opener && !source.text.includes('*/', opener.endIndex)) {
        return { message: 'unclosed template comment', span: spanOfNode(opener) };
      }
      return { message: 'unterminated template action', span: spanOfNode(node) };
    }
    default:
      return isAtEndOfFile(node, source)
        ? { message: 'unexpected end of file', span: source.endOfFile() }
        : { message: `missing ${node.type}`, span: spanOfNode(node) };
  }
}

/** nginx's words when the file ends inside a statement (an unterminated string is one). */
const EXPECTING_STATEMENT_END = 'unexpected end of file, expecting ";" or "}"';

/** An unterminated string is best shown at its opening quote: the missing one is at the end of the file. */
function missingSpan(node: Node): Span {
  if (isQuote(node) && node.parent?.type === 'string') {
    const opening = node.parent.child(0);
    if (opening) return spanOfNode(opening);
  }
  return spanOfNode(node);
}

/**
 * A string nobody closes runs to the end of the file, where nginx reports it; the note says where it opened, which
 * is what the reader has to fix.
 */
function unterminatedStringProblem(quote: Span, source: Source): SyntaxProblem {
  return {
    message: `${EXPECTING_STATEMENT_END} (the string opened on line ${quote.start.line + 1} is not closed)`,
    span: source.endOfFile(),
  };
}

/**
 * A quote that opens a string nobody closes leaves an ERROR region running to the end of the file, with the quote as
 * one of its tokens: that quote is the mistake, whatever the region starts with.
 */
function unterminatedQuote(node: Node, text: string): Node | undefined {
  if (!/^\s*$/.test(text.slice(node.endIndex))) return undefined;
  return node.children.find((child): child is Node => child !== null && isQuote(child) && !child.isMissing);
}

/** Go action and Jinja tag openers, with what closes them. */
const OPENS_ACTION: ReadonlyMap<string, string> = new Map([
  ['{{', '}}'],
  ['{{-', '}}'],
  ['{%', '%}'],
  ['{%-', '%}'],
  ['{%+', '%}'],
]);

/**
 * A `{{` (or Jinja `{%`) with no `}}` (`%}`) anywhere after it: the action runs to the end of the file. Tree-sitter
 * recovers by starting an ERROR region at the enclosing directive (or reading the action's words as directives), so
 * the region's first token says nothing about the mistake; the unclosed `{{` is it. A Go comment `{{/*` with no `*\/`
 * after it takes the rest of the file (the grammar's scanner reads it so, once): Go's own error, "unclosed comment".
 */
function unterminatedAction(node: Node, text: string): SyntaxProblem | undefined {
  const visit = (parent: Node): SyntaxProblem | undefined => {
    for (const child of parent.children) {
      if (!child || child.isMissing) continue;
      const close = OPENS_ACTION.get(child.type);
      if (close === '}}' && UNCLOSED_COMMENT_START.test(text.slice(child.endIndex, child.endIndex + 64))) {
        if (!text.includes('*/', child.endIndex)) return { message: 'unclosed template comment', span: spanOfNode(child) };
      }
      if (close && !text.includes(close, child.endIndex)) return { message: 'unterminated template action', span: spanOfNode(child) };
      const inner = child.isError ? visit(child) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(node);
}

/** What follows `{{` in a Go comment: blanks (after a `{{-`) and `/*`. Bounded, so it never scans far. */
const UNCLOSED_COMMENT_START = /^[ \t\r\n]{0,60}\/\*/;

/**
 * `location /a {` then `{placeholder}` on the next line: nginx fails on the second `{` (a statement cannot start with
 * one), but tree-sitter recovers by dropping the first as an ERROR and reading the second as the block's. The mistake
 * is the brace that opens that block.
 */
function strayBraceBeforeBlock(node: Node): Span | undefined {
  if (node.childCount !== 1 || node.child(0)?.type !== '{') return undefined;
  const next = node.nextSibling;
  const brace = next?.type === 'block' ? next.child(0) : undefined;
  return brace?.type === '{' ? spanOfNode(brace) : undefined;
}

function errorProblem(node: Node, text: string): SyntaxProblem {
  const stray = strayBraceBeforeBlock(node);
  if (stray) return { message: 'unexpected "{"', span: stray };
  const leaf = firstLeaf(node);
  const span = spanOfNode(leaf.endIndex > leaf.startIndex ? leaf : node);
  const token = text.slice(span.startOffset, span.endOffset);
  if (token.trim() === '') return { message: 'unexpected end of file', span };
  return { message: `unexpected ${quoteToken(token)}`, span };
}

function collectErrorNodes(root: Node): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isMissing || node.isError) {
      found.push(node);
      continue;
    }
    if (!node.hasError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

/** `text` is the parsed source; pass it when at hand to spare copying it out of the tree. */
export function collectSyntaxProblems(tree: Tree, text: string = tree.rootNode.text): SyntaxProblem[] {
  if (!tree.rootNode.hasError) return [];
  const source = new Source(text);
  const problems: SyntaxProblem[] = [];
  const add = (problem: SyntaxProblem) => {
    // A `;` and a `}` both missing before the end of the file are one place to nginx: its last line, reported once.
    if (problems.at(-1)?.span.startOffset !== problem.span.startOffset) problems.push(problem);
  };
  let lastOffset = -1;
  for (const node of collectErrorNodes(tree.rootNode)) {
    // Several MISSING tokens at one place (`"`, then `;`, then `}` at the end of the file) are one mistake.
    if (node.startIndex === lastOffset) continue;
    lastOffset = node.startIndex;
    const openQuote = node.isError ? unterminatedQuote(node, text) : undefined;
    if (openQuote) {
      add(unterminatedStringProblem(spanOfNode(openQuote), source));
      break;
    }
    const openAction = node.isError ? unterminatedAction(node, text) : undefined;
    if (openAction) {
      add(openAction);
      break;
    }
    if (node.isMissing && isQuote(node)) {
      // Everything after an unterminated string is inside it; what follows cannot be judged.
      add(unterminatedStringProblem(missingSpan(node), source));
      break;
    }
    add(node.isMissing ? missingProblem(node, source) : errorProblem(node, text));
  }
  return problems;
}
