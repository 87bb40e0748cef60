// GitLab's Code Quality report (artifacts:reports:codequality): a JSON array of issues, a subset of the Code Climate
// spec, which GitLab shows in the merge request widget and the changes tab. GitLab matches an issue across the base
// and head pipelines by its fingerprint alone, so the fingerprint must not change when unrelated lines move: it hashes
// the rule id, the file's path, the flagged line's text (white space collapsed) and which occurrence of that same
// triple it is in the file, and no line number.
import { createHash } from 'node:crypto';
import type { Finding, Severity } from '../util/types.js';
import { repositoryPath, type FileReport } from './report.js';

export type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

/** Errors are what `nginx -t` rejects or the run cannot check; warnings lose connections; info is advice. */
const SEVERITY: Record<Severity, CodeQualitySeverity> = { error: 'major', warning: 'minor', info: 'info' };

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: CodeQualitySeverity;
  location: { path: string; lines: { begin: number; end: number } };
}

export function formatGitlab(reports: FileReport[], cwd: string): string {
  return `${JSON.stringify(reports.flatMap((report) => issuesOf(report, cwd)), null, 2)}\n`;
}

function issuesOf(report: FileReport, cwd: string): CodeQualityIssue[] {
  // Relative to the working directory: the project directory in a GitLab job.
  const file = repositoryPath(report.path, cwd);
  const lines = report.text?.split('\n');
  const seen = new Map<string, number>();
  return report.findings.map((finding) => {
    const key = JSON.stringify([finding.ruleId, file, flaggedLine(finding, lines)]);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return {
      description: finding.message,
      check_name: finding.ruleId,
      fingerprint: createHash('sha256').update(`${key}\n${occurrence}`).digest('hex'),
      severity: SEVERITY[finding.severity],
      location: { path: file, lines: { begin: finding.span.start.line + 1, end: finding.span.end.line + 1 } },
    };
  });
}

/**
 * The text of the line the finding starts on, white space collapsed (re-indenting keeps the fingerprint). A file
 * whose text is not at hand (an included file outside the shown paths) falls back to the message.
 */
function flaggedLine(finding: Finding, lines: string[] | undefined): string {
  const line = lines?.[finding.span.start.line];
  if (line === undefined) return `message:${finding.message}`;
  return line.trim().replace(/\s+/g, ' ');
}
