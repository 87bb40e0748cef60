// Findings grouped per file, the shape both formatters print.
import path from 'node:path';
import { isNormalAbsolute, leavesDirectory } from '../util/paths.js';
import { DEFAULT_MAX_FILE_BYTES } from '../util/byte-size.js';
import { readRegularFile } from '../util/read-file.js';
import type { Finding, Severity, SourceDocument } from '../util/types.js';

export interface FileReport {
  /** Absolute path. */
  path: string;
  /** The text the findings' spans point into; undefined if it could not be read (then no code frame). */
  text: string | undefined;
  /** In source order. */
  findings: Finding[];
}

export type SeverityCounts = Record<Severity, number>;

export interface GroupOptions {
  /**
   * Whether the text of a file that was not checked may be read for code frames. The CLI allows the checked paths
   * and the --path-map targets only: a frame prints file contents, and a file outside them (reached however) may be
   * a host's secret. Default: none is read.
   */
  mayShow?(file: string): boolean;
  /** The largest file read for code frames (a larger one gets none). */
  maxFileBytes?: number;
}

/**
 * One report per checked file, even a clean one (the JSON output lists every file, as ESLint does), plus one for
 * any other file a finding points into (an included file that was not on the command line).
 */
export function groupByFile(documents: SourceDocument[], findings: Finding[], cwd: string, options: GroupOptions = {}): FileReport[] {
  const reports = new Map<string, FileReport>();
  for (const document of documents) {
    reports.set(document.path, { path: document.path, text: document.text, findings: [] });
  }
  for (const finding of findings) {
    // Findings name absolute, normal paths (the documents' own): resolved again only when not.
    const file = isNormalAbsolute(finding.file) ? finding.file : path.resolve(cwd, finding.file);
    let report = reports.get(file);
    if (report === undefined) {
      const text = options.mayShow?.(file) ? readTextOrUndefined(file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES) : undefined;
      report = { path: file, text, findings: [] };
      reports.set(file, report);
    }
    report.findings.push(finding);
  }
  for (const report of reports.values()) report.findings.sort(bySourcePosition);
  return [...reports.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A report's path for CI services that resolve it against the repository (GitLab, reviewdog): relative to the
 * working directory with forward slashes, or absolute (forward slashes too) outside it.
 */
export function repositoryPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return (relative === '' || leavesDirectory(relative) ? file : relative).split(path.sep).join('/');
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

/** A regular file only, bounded: a FIFO swapped in since the analysis must not block the report. */
function readTextOrUndefined(file: string, maxBytes: number): string | undefined {
  const read = readRegularFile(file, maxBytes);
  return read.kind === 'read' ? read.bytes.toString('utf8') : undefined;
}
