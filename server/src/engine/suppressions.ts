// Suppression comments applied to findings (see suppression-comments.ts for the syntax). Runs after every rule, as a
// filter in analyze(): a suppression is a statement about findings, so it can only be judged once all of them exist.
// That is also why `unused-suppression` is reported here and not by its rule's check.
import path from 'node:path';
import { lineStartOf } from '../fixes/edits.js';
import { parseSuppressionComments, SUPPRESSION_MARKER, type SuppressedRule, type SuppressionComment } from './suppression-comments.js';
import type { Finding, Severity, TextEdit } from '../util/types.js';
import { mentions } from '../model/text-mentions.js';
import type { ConfigFile } from '../model/types.js';

export const UNUSED_SUPPRESSION_RULE_ID = 'unused-suppression';

export interface SuppressionSettings {
  /** Ids a suppression may name: the rules analyze() ran (turned off or not). */
  knownRuleIds: ReadonlySet<string>;
  /** Severity of unused-suppression findings; undefined when that rule is off (nothing is reported then). */
  unusedSeverity: Severity | undefined;
}

export interface TextFile {
  path: string;
  text: string;
}

interface FileSuppressions {
  file: TextFile;
  comments: SuppressionComment[];
  /** Entries of `comments` that matched at least one finding. */
  used: Set<SuppressedRule>;
}

/** The suppression entries that cover `finding`, in the file it belongs to. */
function matching(finding: Finding, suppressions: FileSuppressions): SuppressedRule[] {
  const line = finding.span.start.line;
  return suppressions.comments
    .filter((comment) => comment.scope === 'file' || comment.targetLine === line)
    .flatMap((comment) => comment.rules.filter((rule) => rule.id === finding.ruleId));
}

/** Drops suppressed findings, marking what suppressed them. `only` limits which rule ids may be suppressed. */
function filterFindings(findings: Finding[], byFile: Map<string, FileSuppressions>, only: (id: string) => boolean): Finding[] {
  return findings.filter((finding) => {
    const suppressions = byFile.get(path.resolve(finding.file));
    if (!suppressions || !only(finding.ruleId)) return true;
    const matches = matching(finding, suppressions);
    for (const entry of matches) suppressions.used.add(entry);
    return matches.length === 0;
  });
}

function unusedMessage(comment: SuppressionComment, id: string): string {
  if (comment.scope === 'file') return `unused suppression: no "${id}" finding in this file`;
  if (comment.targetLine === undefined) return `unused suppression: no line follows it`;
  return `unused suppression: no "${id}" finding on line ${comment.targetLine + 1}`;
}

/** Removes one rule from its comment, or the whole comment line when it names no other. */
function removalEdit(file: TextFile, comment: SuppressionComment, entry: SuppressedRule): TextEdit {
  const index = comment.rules.indexOf(entry);
  const next = comment.rules[index + 1];
  const previous = comment.rules[index - 1];
  if (next) return { file: file.path, startOffset: entry.span.startOffset, endOffset: next.span.startOffset, newText: '' };
  if (previous) return { file: file.path, startOffset: previous.span.endOffset, endOffset: entry.span.endOffset, newText: '' };
  return deleteLineEdit(file, comment);
}

function deleteLineEdit(file: TextFile, comment: SuppressionComment): TextEdit {
  const { text } = file;
  const end = comment.lineEndOffset;
  const eolLength = text.startsWith('\r\n', end) ? 2 : text[end] === '\n' ? 1 : 0;
  if (eolLength > 0 || comment.lineStartOffset === 0) {
    return { file: file.path, startOffset: comment.lineStartOffset, endOffset: end + eolLength, newText: '' };
  }
  // The last line, without a line break: take the break before it instead, so no empty line is left behind.
  const previousEol = text[comment.lineStartOffset - 2] === '\r' ? 2 : 1;
  return { file: file.path, startOffset: comment.lineStartOffset - previousEol, endOffset: end, newText: '' };
}

function problemsOf(suppressions: FileSuppressions, settings: SuppressionSettings, severity: Severity): Finding[] {
  const { file } = suppressions;
  const findings: Finding[] = [];
  const report = (finding: Omit<Finding, 'ruleId' | 'severity' | 'file'>) =>
    findings.push({ ruleId: UNUSED_SUPPRESSION_RULE_ID, severity, file: file.path, ...finding });
  for (const comment of suppressions.comments) {
    if (comment.rules.length === 0) {
      report({ span: comment.span, message: 'suppression names no rule (expected "# nginx-keepalive-ignore <rule-id>: reason")' });
    }
    for (const entry of comment.rules) {
      if (!settings.knownRuleIds.has(entry.id)) {
        const hint = 'separate rule ids with "," and the reason with ":"';
        report({ span: entry.span, message: `unknown rule "${entry.id}" in suppression (${hint})` });
      } else if (entry.id !== UNUSED_SUPPRESSION_RULE_ID && !suppressions.used.has(entry)) {
        const fix = { title: `Remove the unused suppression of "${entry.id}"`, edits: [removalEdit(file, comment, entry)] };
        report({ span: entry.span, message: unusedMessage(comment, entry.id), fixable: true, fix });
      }
    }
  }
  return findings;
}

/**
 * Drops the findings suppression comments cover, and adds an unused-suppression finding for every suppressed rule id
 * that covered nothing, is unknown, or is missing. Those can in turn be suppressed (e.g. with
 * `# nginx-keepalive-ignore-file unused-suppression` in a template shared by setups that differ); a suppression of
 * unused-suppression is itself never reported as unused, which would only go round in circles.
 */
export function applySuppressions(files: readonly ConfigFile[], findings: Finding[], settings: SuppressionSettings): Finding[] {
  const byFile = new Map<string, FileSuppressions>();
  for (const file of files) {
    // The marker searched once per model, not per analysis of a large file (text-mentions.ts).
    const comments = mentions(file, SUPPRESSION_MARKER) ? parseSuppressionComments(file.text) : [];
    if (comments.length > 0) byFile.set(path.resolve(file.path), { file, comments, used: new Set() });
  }
  if (byFile.size === 0) return findings;
  const kept = filterFindings(findings, byFile, (id) => settings.knownRuleIds.has(id) && id !== UNUSED_SUPPRESSION_RULE_ID);
  const severity = settings.unusedSeverity;
  if (severity === undefined) return kept;
  const problems = [...byFile.values()].flatMap((suppressions) => problemsOf(suppressions, settings, severity));
  return [...kept, ...filterFindings(problems, byFile, (id) => id === UNUSED_SUPPRESSION_RULE_ID)];
}

/**
 * The edit that silences `finding` on its line (the language server's "ignore this rule on this line"): a comment
 * line above the finding's line with the same indentation, or the rule added to a suppression comment already there.
 */
export function suppressionEdit(text: string, finding: Finding, eol: string, indent: string, reason?: string): TextEdit {
  const lineStart = lineStartOf(text, finding.span.startOffset);
  const above = parseSuppressionComments(text).find(
    (comment) => comment.scope === 'line' && comment.targetLine === finding.span.start.line && comment.rules.length > 0,
  );
  if (above) {
    const last = above.rules[above.rules.length - 1]!;
    return { file: finding.file, startOffset: last.span.endOffset, endOffset: last.span.endOffset, newText: `, ${finding.ruleId}` };
  }
  const because = reason ? `: ${reason}` : '';
  const comment = `${indent}# nginx-keepalive-ignore ${finding.ruleId}${because}${eol}`;
  return { file: finding.file, startOffset: lineStart, endOffset: lineStart, newText: comment };
}
