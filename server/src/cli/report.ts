// Findings grouped per file, the shape both formatters print.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding, Severity, SourceDocument } from '../core/types.js';

export interface FileReport {
  /** Absolute path. */
  path: string;
  /** The text the findings' spans point into; undefined if it could not be read (then no code frame). */
  text: string | undefined;
  /** In source order. */
  findings: Finding[];
}

export type SeverityCounts = Record<Severity, number>;

/**
 * One report per checked file, even a clean one (the JSON output lists every file, as ESLint does), plus one for
 * any other file a finding points into (an included file that was not on the command line).
 */
export function groupByFile(documents: SourceDocument[], findings: Finding[], cwd: string): FileReport[] {
  const reports = new Map<string, FileReport>();
  for (const document of documents) {
    reports.set(document.path, { path: document.path, text: document.text, findings: [] });
  }
  for (const finding of findings) {
    const file = path.resolve(cwd, finding.file);
    let report = reports.get(file);
    if (report === undefined) {
      report = { path: file, text: readTextOrUndefined(file), findings: [] };
      reports.set(file, report);
    }
    report.findings.push(finding);
  }
  for (const report of reports.values()) report.findings.sort(bySourcePosition);
  return [...reports.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function countSeverities(findings: Iterable<Finding>): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

function bySourcePosition(a: Finding, b: Finding): number {
  return (
    a.span.start.line - b.span.start.line ||
    a.span.start.column - b.span.start.column ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0)
  );
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
