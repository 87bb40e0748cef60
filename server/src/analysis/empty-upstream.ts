// An upstream{} without a `server`: ngx_http_upstream (and ngx_stream_upstream) refuses it when it has read the
// block, on the line of its `}` ("no servers are inside upstream"). A `}` typed too early leaves one so: the servers
// after it are then read at http level. Not said where something unseen may add servers: an include, a template
// action, a block nginx never reads whole (a syntax error in it, the syntax rule's).
import type { Directive } from '../model/types.js';
import type { Span } from '../util/types.js';
import { isMisread } from './misread.js';

export interface EmptyUpstreamProblem {
  kind: 'empty-upstream';
  /** The block's `}`, where nginx reports it. */
  span: Span;
}

export function emptyUpstreamProblem(directive: Directive): EmptyUpstreamProblem | undefined {
  const block = directive.blockSpan;
  if (directive.name !== 'upstream' || !block || directive.file.isTemplate || isMisread(directive)) return undefined;
  if (directive.file.text[block.endOffset - 1] !== '}') return undefined;
  if (directive.children.some((child) => child.name === 'server' || child.name === 'include')) return undefined;
  const end = block.end;
  return {
    kind: 'empty-upstream',
    span: { start: { line: end.line, column: end.column - 1 }, end, startOffset: block.endOffset - 1, endOffset: block.endOffset },
  };
}
