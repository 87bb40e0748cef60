// A model's span (OffsetSpan) computes its line and column when asked, so it has no `start`/`end` own properties
// for toEqual to walk. Spans are equal when both ends agree in offset and in position, whatever their class: a
// model's span, a plain one a worker posted, or one a test wrote.
import { expect } from 'vitest';
import { OffsetSpan } from '../../server/src/model/line-index.js';
import type { Span } from '../../server/src/util/types.js';

function spanParts(span: Span): unknown[] {
  return [span.startOffset, span.endOffset, span.start.line, span.start.column, span.end.line, span.end.column];
}

function isSpanLike(value: unknown): value is Span {
  return typeof value === 'object' && value !== null && 'startOffset' in value && 'endOffset' in value && 'start' in value && 'end' in value;
}

expect.addEqualityTesters([
  function spansEqual(a: unknown, b: unknown): boolean | undefined {
    if (!(a instanceof OffsetSpan) && !(b instanceof OffsetSpan)) return undefined;
    if (!isSpanLike(a) || !isSpanLike(b)) return false;
    const left = spanParts(a);
    const right = spanParts(b);
    return left.every((part, index) => part === right[index]);
  },
]);
