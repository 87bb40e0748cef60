// Findings as LSP diagnostics. Positions come from the finding's offsets through the document's own line index, so
// they mean what the client thinks a line is (the LSP also breaks lines at a lone '\r'), clamped to the text.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver/node.js';
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

export function rangeOf(document: TextDocument, startOffset: number, endOffset: number): Diagnostic['range'] {
  return { start: document.positionAt(startOffset), end: document.positionAt(Math.max(startOffset, endOffset)) };
}

export function toDiagnostic(finding: Finding, document: TextDocument): Diagnostic {
  const diagnostic: Diagnostic = {
    range: rangeOf(document, finding.span.startOffset, finding.span.endOffset),
    severity: SEVERITIES[finding.severity],
    code: finding.ruleId,
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
  };
  // internal-error is not a rule and has no page.
  if (findRule(finding.ruleId)) diagnostic.codeDescription = { href: docsUrl(finding.ruleId) };
  if (finding.ruleId === UNUSED_SUPPRESSION_RULE_ID) diagnostic.tags = [DiagnosticTag.Unnecessary];
  return diagnostic;
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
