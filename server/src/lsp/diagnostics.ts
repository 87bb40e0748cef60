// Findings as LSP diagnostics. Positions come from the finding's offsets through the document's own line index, so
// they mean what the client thinks a line is (the LSP also breaks lines at a lone '\r'), clamped to the text.
// The message is the finding's one-line headline (the Problems panel cuts long ones); its detail and a withheld
// fix's reason go in relatedInformation at the finding's own place, which VS Code shows under the diagnostic in the
// hover and the Problems panel. Sent to every client: one that does not support it ignores the property (LSP), and
// its codeDescription link (the rule's page) still has the why.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DiagnosticRelatedInformation } from './protocol.js';
import { INTERNAL_ERROR_RULE_ID } from '../engine/analyze.js';
import type { Finding, Severity } from '../util/types.js';
import { UNUSED_SUPPRESSION_RULE_ID } from '../engine/suppressions.js';
import { docsUrl } from '../engine/docs-url.js';
import { findRule } from '../rules/registry.js';

export const DIAGNOSTIC_SOURCE = 'nginx-keepalive';
export const TOO_LARGE_CODE = 'file-too-large';

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/**
 * One link per rule, shared by all its diagnostics and frozen (a diagnostic is never changed once made): a 1 MB file's
 * thousands of findings held one copy of the same URL object each (~0.7 MB of the server's heap).
 */
const codeDescriptions = new Map<string, Diagnostic['codeDescription']>();

function codeDescriptionOf(ruleId: string): Diagnostic['codeDescription'] {
  let description = codeDescriptions.get(ruleId);
  if (description === undefined) {
    description = Object.freeze({ href: docsUrl(ruleId) });
    codeDescriptions.set(ruleId, description);
  }
  return description;
}

export function rangeOf(document: TextDocument, startOffset: number, endOffset: number): Diagnostic['range'] {
  return { start: document.positionAt(startOffset), end: document.positionAt(Math.max(startOffset, endOffset)) };
}

/**
 * `range`: the finding's, when the caller computed it already. A diagnostic is a value: never changed once made (the
 * message writer keeps its JSON, message-encoding.ts).
 */
export function toDiagnostic(finding: Finding, document: TextDocument, range = rangeOf(document, finding.span.startOffset, finding.span.endOffset)): Diagnostic {
  const diagnostic: Diagnostic = {
    range,
    severity: SEVERITIES[finding.severity],
    code: finding.ruleId,
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
  };
  // internal-error is not a rule and has no page.
  if (findRule(finding.ruleId)) diagnostic.codeDescription = codeDescriptionOf(finding.ruleId);
  if (finding.ruleId === UNUSED_SUPPRESSION_RULE_ID) diagnostic.tags = [DiagnosticTag.Unnecessary];
  const related = relatedInformation(finding, document, diagnostic.range);
  if (related.length > 0) diagnostic.relatedInformation = related;
  return diagnostic;
}

function relatedInformation(finding: Finding, document: TextDocument, range: Diagnostic['range']): DiagnosticRelatedInformation[] {
  const location = { uri: document.uri, range };
  const related: DiagnosticRelatedInformation[] = [];
  if (finding.detail !== undefined) related.push({ location, message: finding.detail });
  if (finding.withheld !== undefined) related.push({ location, message: `No fix offered: ${finding.withheld}` });
  return related;
}

/** Said once, at the top, instead of parsing a file that would take too long or too much memory. */
export function tooLargeDiagnostic(reason: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    code: TOO_LARGE_CODE,
    source: DIAGNOSTIC_SOURCE,
    message: `nginx-keepalive: ${reason}`,
  };
}

/** The analysis itself failed (a bug): shown instead of the previous version's diagnostics, which no longer apply. */
export function analysisFailedDiagnostic(reason: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Error,
    code: INTERNAL_ERROR_RULE_ID,
    source: DIAGNOSTIC_SOURCE,
    message: `nginx-keepalive could not analyze this file (please report it): ${reason}`,
  };
}
