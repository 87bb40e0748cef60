// Spans from tree-sitter nodes. web-tree-sitter 0.27 parses JavaScript strings as UTF-16, so its indices and columns
// are already UTF-16 code units (checked by test/model/build.test.ts with non-BMP text): no conversion is needed.
import type { Node } from 'web-tree-sitter';
import type { Span } from '../util/types.js';

export function spanOfNode(node: Node): Span {
  const end = node.endPosition;
  return {
    start: { line: node.startPosition.row, column: node.startPosition.column },
    end: { line: end.row, column: end.column },
    startOffset: node.startIndex,
    endOffset: node.endIndex,
  };
}

/** The span from the start of `first` to the end of `last`. */
export function spanBetween(first: Span, last: Span): Span {
  return { start: first.start, end: last.end, startOffset: first.startOffset, endOffset: last.endOffset };
}

export const EMPTY_SPAN: Span = {
  start: { line: 0, column: 0 },
  end: { line: 0, column: 0 },
  startOffset: 0,
  endOffset: 0,
};
