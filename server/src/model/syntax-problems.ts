// Turns tree-sitter's ERROR and MISSING nodes into one problem per error region, worded as nginx words them.
import type { Node, Tree } from 'web-tree-sitter';
import type { Span } from '../util/types.js';
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

function isAtEndOfFile(node: Node, text: string): boolean {
  return /^\s*$/.test(text.slice(node.startIndex));
}

function isQuote(node: Node): boolean {
  return node.type === '"' || node.type === "'";
}

function missingMessage(node: Node, text: string): string {
  switch (node.type) {
    case ';':
      return 'missing ";"';
    case '}':
      return isAtEndOfFile(node, text) ? 'unexpected end of file, expecting "}"' : 'missing "}"';
    case '"':
    case "'":
      return 'unterminated string';
    case ')':
      return 'missing ")" in condition';
    case '}}':
    case '-}}':
      return 'unterminated template action';
    default:
      return isAtEndOfFile(node, text) ? 'unexpected end of file' : `missing ${node.type}`;
  }
}

/** An unterminated string is best shown at its opening quote: the missing one is at the end of the file. */
function missingSpan(node: Node): Span {
  if (isQuote(node) && node.parent?.type === 'string') {
    const opening = node.parent.child(0);
    if (opening) return spanOfNode(opening);
  }
  return spanOfNode(node);
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
 * A `{{` (or Jinja `{%`) with no `}}` (`%}`) anywhere after it: the action runs to the end of the file. Tree-sitter recovers by starting an
 * ERROR region at the enclosing directive (or reading the action's words as directives), so the region's first
 * token says nothing about the mistake; the unclosed `{{` is it.
 */
function unterminatedAction(node: Node, text: string): Node | undefined {
  const visit = (parent: Node): Node | undefined => {
    for (const child of parent.children) {
      if (!child || child.isMissing) continue;
      const close = OPENS_ACTION.get(child.type);
      if (close && !text.includes(close, child.endIndex)) return child;
      const inner = child.isError ? visit(child) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(node);
}

function errorProblem(node: Node, text: string): SyntaxProblem {
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
  const problems: SyntaxProblem[] = [];
  let lastOffset = -1;
  for (const node of collectErrorNodes(tree.rootNode)) {
    // Several MISSING tokens at one place (`"`, then `;`, then `}` at the end of the file) are one mistake.
    if (node.startIndex === lastOffset) continue;
    lastOffset = node.startIndex;
    const openQuote = node.isError ? unterminatedQuote(node, text) : undefined;
    if (openQuote) {
      problems.push({ message: 'unterminated string', span: spanOfNode(openQuote) });
      break;
    }
    const openAction = node.isError ? unterminatedAction(node, text) : undefined;
    if (openAction) {
      problems.push({ message: 'unterminated template action', span: spanOfNode(openAction) });
      break;
    }
    problems.push(node.isMissing ? { message: missingMessage(node, text), span: missingSpan(node) } : errorProblem(node, text));
    // Everything after an unterminated string is inside it; what follows cannot be judged.
    if (node.isMissing && isQuote(node)) break;
  }
  return problems;
}
