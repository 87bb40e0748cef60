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
}

/** Per open document: by the finding a rule reported (findingIdentity), the diagnostic last sent for it. */
const keptByDocument = new WeakMap<OpenDocument, WeakMap<object, Kept>>();

function sameRange(a: Diagnostic['range'], b: Diagnostic['range']): boolean {
  return (
    a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character
  );
}

/** The diagnostics of `findings` (the document's own) for the document's current text: toDiagnostic() of each. */
export function diagnosticsOf(document: OpenDocument, findings: readonly Finding[]): Diagnostic[] {
  let kept = keptByDocument.get(document);
  if (!kept) keptByDocument.set(document, (kept = new WeakMap()));
  const text = document.textDocument;
  const diagnostics: Diagnostic[] = new Array(findings.length);
  for (let at = 0; at < findings.length; at++) {
    const finding = findings[at]!;
    const identity = findingIdentity(finding);
    const previous = kept.get(identity);
    const range = rangeOf(text, finding.span.startOffset, finding.span.endOffset);
    if (
      previous &&
      sameRange(previous.diagnostic.range, range) &&
      previous.severity === finding.severity &&
      previous.message === finding.message &&
      previous.detail === finding.detail &&
      previous.withheld === finding.withheld
    ) {
      diagnostics[at] = previous.diagnostic;
      continue;
    }
    const diagnostic = toDiagnostic(finding, text, range);
    kept.set(identity, { diagnostic, severity: finding.severity, message: finding.message, detail: finding.detail, withheld: finding.withheld });
    diagnostics[at] = diagnostic;
  }
  markReusable(diagnostics);
  return diagnostics;
}
