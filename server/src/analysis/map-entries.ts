// A map{} entry nginx refuses when it reads it (ngx_http_map, ngx_stream_map): every line is a source value and a
// result, two words, except `hostnames` and `volatile` alone; anything else is "invalid number of the map
// parameters", on the line of the entry's `;`. A map's `}` deleted makes the lines after it entries, so this is where
// nginx stops then.
import type { Directive } from '../model/types.js';
import type { Span } from '../util/types.js';
import { isMisread } from './misread.js';

export interface MapEntryProblem {
  kind: 'map-entry';
  /** The entry's `;` (or its last word), where nginx reports it. */
  span: Span;
  /** The entry's first word: the statement the problem is about (its hover shows it). */
  entry: Span;
  words: number;
}

const ALONE = new Set(['hostnames', 'volatile']);

export function mapEntryProblem(directive: Directive): MapEntryProblem | undefined {
  if (directive.name !== 'map' || !directive.blockSpan || directive.file.isTemplate) return undefined;
  for (const entry of directive.children) {
    if (isMisread(entry)) return undefined;
    if (entry.args.some((arg) => arg.templated) || entry.blockSpan) return undefined;
    const words = 1 + entry.args.length;
    if (words === 2 || (words === 1 && ALONE.has(entry.name))) continue;
    const end = entry.span.end;
    const span = { start: { line: end.line, column: Math.max(0, end.column - 1) }, end, startOffset: entry.span.endOffset - 1, endOffset: entry.span.endOffset };
    return { kind: 'map-entry', span, entry: entry.nameSpan, words };
  }
  return undefined;
}
