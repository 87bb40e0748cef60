// GitHub Actions workflow commands: one `::error file=…,line=…::message` line per finding, which the runner turns into
// annotations on the pull request's diff. No summary line: the annotations are the report.
import type { Finding, Severity } from '../util/types.js';
import { displayPath, withoutControlCharacters } from '../util/paths.js';
import type { FileReport } from './report.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** GitHub's escaping of a command's message (`%`, CR and LF would end or corrupt the command). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value additionally escapes `:` and `,`, which separate the properties from each other and the message. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `file` is relative to the working directory: Actions resolves it against the workspace, where the job runs. */
export function formatGithub(reports: FileReport[], cwd: string): string {
  return reports
    .flatMap((report) => report.findings.map((finding) => annotation(displayPath(report.path, cwd), finding)))
    .map((line) => `${line}\n`)
    .join('');
}

function annotation(file: string, finding: Finding): string {
  const { start, end } = finding.span;
  const properties = [
    ['file', file],
    ['line', String(start.line + 1)],
    ['col', String(start.column + 1)],
    ['endLine', String(end.line + 1)],
    ['endColumn', String(end.column + 1)],
    ['title', finding.ruleId],
  ]
    .map(([key, value]) => `${key}=${escapeProperty(value!)}`)
    .join(',');
  // A message may quote config text: control characters escaped as in stylish output, so the log stays as written.
  return `::${COMMAND[finding.severity]} ${properties}::${withoutControlCharacters(escapeData(finding.message))}`;
}
