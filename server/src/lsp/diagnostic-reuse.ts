// An open document's diagnostics, each kept from the previous version when its finding is the same one moved and
// lands on the same line and columns. After a keystroke in a large file nearly every finding is a previous one moved
// (engine/finding-reuse.ts) on the line it was on: building its diagnostic again (positions, the docs link, related
// information) was thousands of objects per keystroke for the garbage collector, and the same object sent again lets
// the message writer reuse its JSON (message-encoding.ts) and the pull delivery compare it at once (same-json.ts).
import type { Diagnostic } from './protocol.js';
import { findingIdentity } from '../engine/finding-reuse.js';
import type { Finding } from '../util/types.js';
import { rangeOf, toDiagnostic } from './diagnostics.js';
import { markReusable } from './message-encoding.js';
import type { OpenDocument } from './open-document.js';

interface Kept {
  diagnostic: Diagnostic;
  /** The fields of the finding the diagnostic shows besides its place (a moved finding has those it was moved from). */
  severity: Finding['severity'];
  message: string;
  detail: string | undefined;
  withheld: string | undefined;
  /** The offsets its range was found for, and in which of the document's sets of diagnostics (Shown.made). */
  startOffset: number;
  endOffset: number;
  made: number;
}

/** Per open document. */
interface Shown {
  /** By the finding a rule reported (findingIdentity), the diagnostic last sent for it. */
  kept: WeakMap<object, Kept>;
  /** How many sets of diagnostics were made of the document, and its line count at the last. */
  made: number;
  lineCount: number;
}
const shownByDocument = new WeakMap<OpenDocument, Shown>();

/**
 * Where the text is the same as when the last set was made: offsets before `before` are unchanged, and offsets from
 * `after` on (the start of the first line after the changes) moved by `delta`, their lines by `lines`, their columns
 * not at all. Looking two positions up in a 1 MB text, for each of its thousands of findings, was most of the time
 * the diagnostics of a keystroke took; a keystroke leaves nearly all of them where they were or on a moved line.
 */
interface Unmoved {
  before: number;
  after: number;
  delta: number;
  lines: number;
}

function unmovedOf(document: OpenDocument, shown: Shown): Unmoved | undefined {
  const since = document.changesSinceDiagnostics();
  if (since === 'unknown' || shown.made === 0) return undefined;
  if (since === 'unchanged') return { before: Infinity, after: Infinity, delta: 0, lines: 0 };
  const newEnd = since.oldEnd + since.delta;
  // The line break ending the changes' last line: a '\r' before it (or a lone '\r' line) only makes this later.
  const lineBreak = document.text.indexOf('\n', newEnd);
  const after = lineBreak < 0 ? Infinity : lineBreak + 1;
  return { before: since.start, after, delta: since.delta, lines: document.textDocument.lineCount - shown.lineCount };
}

function sameRange(a: Diagnostic['range'], b: Diagnostic['range']): boolean {
  return (
    a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character
  );
}

/** The range of `start`..`end` when the previous diagnostic's tells it without a look-up; undefined otherwise. */
function rangeFrom(previous: Kept, start: number, end: number, unmoved: Unmoved): Diagnostic['range'] | undefined {
  const range = previous.diagnostic.range;
  // Each position depends only on the text before it and the character at it (a '\r' just before a '\n').
  if (end < unmoved.before && start === previous.startOffset && end === previous.endOffset) return range;
  if (start < unmoved.after || start - previous.startOffset !== unmoved.delta || end - previous.endOffset !== unmoved.delta) return undefined;
  if (unmoved.lines === 0) return range;
  return {
    start: { line: range.start.line + unmoved.lines, character: range.start.character },
    end: { line: range.end.line + unmoved.lines, character: range.end.character },
  };
}

/** The diagnostics of `findings` (the document's own) for the document's current text: toDiagnostic() of each. */
export function diagnosticsOf(document: OpenDocument, findings: readonly Finding[]): Diagnostic[] {
  let shown = shownByDocument.get(document);
  if (!shown) shownByDocument.set(document, (shown = { kept: new WeakMap(), made: 0, lineCount: 0 }));
  const unmoved = unmovedOf(document, shown);
  const last = shown.made;
  const made = ++shown.made;
  const text = document.textDocument;
  shown.lineCount = text.lineCount;
  const { kept } = shown;
  const diagnostics: Diagnostic[] = new Array(findings.length);
  for (let at = 0; at < findings.length; at++) {
    const finding = findings[at]!;
    const identity = findingIdentity(finding);
    const previous = kept.get(identity);
    const start = finding.span.startOffset;
    const end = Math.max(start, finding.span.endOffset);
    const range = (previous && unmoved && previous.made === last && rangeFrom(previous, start, end, unmoved)) || rangeOf(text, start, end);
    if (
      previous &&
      (previous.diagnostic.range === range || sameRange(previous.diagnostic.range, range)) &&
      previous.severity === finding.severity &&
      previous.message === finding.message &&
      previous.detail === finding.detail &&
      previous.withheld === finding.withheld
    ) {
      previous.startOffset = start;
      previous.endOffset = end;
      previous.made = made;
      diagnostics[at] = previous.diagnostic;
      continue;
    }
    const diagnostic = toDiagnostic(finding, text, range);
    const { severity, message, detail, withheld } = finding;
    kept.set(identity, { diagnostic, severity, message, detail, withheld, startOffset: start, endOffset: end, made });
    diagnostics[at] = diagnostic;
  }
  markReusable(diagnostics);
  return diagnostics;
}
