// Machine output in ESLint's JSON formatter shape, so tools that already read ESLint results (CI annotators, code
// quality converters, editors' problem matchers) read ours unchanged. A few properties of our own are added to a
// message (ESLint's readers ignore unknown keys): `detail`, `fixWithheld`, `fixSafety`.
import type { Finding, Severity } from '../util/types.js';
import { fixApplies, isUnsafeFix } from '../engine/fix-safety.js';
import { countSeverities, type FileReport, type SeverityCounts } from './report.js';

export interface JsonMessage {
  ruleId: string;
  severity: 0 | 1 | 2;
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (what ESLint and JavaScript count). */
  column: number;
  endLine: number;
  /** 1-based and exclusive, as ESLint's. */
  endColumn: number;
  /** Not ESLint's: the why and the particulars behind the one-line `message`. */
  detail?: string;
  /** Not ESLint's: why no fix is offered (an include that could not be read, an unknown context, ...). */
  fixWithheld?: string;
  /** Not ESLint's: a fix is offered, and whether --fix applies it (`safe`) or only --unsafe-fixes does. */
  fixSafety?: 'safe' | 'unsafe';
}

export interface JsonResult {
  /** Absolute, as ESLint's. */
  filePath: string;
  messages: JsonMessage[];
  suppressedMessages: [];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  /** What --fix would fix, as ESLint counts: safe fixes, plus unsafe ones when the run has --unsafe-fixes. */
  fixableErrorCount: number;
  fixableWarningCount: number;
  /** Not in ESLint's shape: the info findings, which it has no level for (see SEVERITY_NUMBER). */
  infoCount: number;
  usedDeprecatedRules: [];
}

/**
 * ESLint has no info level: 2 is error, 1 is warning, 0 is "off". Info findings use 0 so that every consumer that
 * derives failure from severity (`severity === 2`, or counting 1s against --max-warnings) agrees with our exit code,
 * which info findings never fail. Consumers that print every message still show them, and `infoCount` counts them.
 */
const SEVERITY_NUMBER: Record<Severity, 0 | 1 | 2> = { error: 2, warning: 1, info: 0 };

export interface JsonOptions {
  /** --unsafe-fixes: unsafe fixes count as fixable (what --fix would then fix). */
  unsafeFixes?: boolean;
}

/** Every checked file is listed, clean ones with no messages (as ESLint does). One line, as ESLint prints it. */
export function formatJson(reports: FileReport[], options: JsonOptions = {}): string {
  return `${JSON.stringify(reports.map((report) => toJsonResult(report, options.unsafeFixes === true)))}\n`;
}

function toJsonResult(report: FileReport, unsafeFixes: boolean): JsonResult {
  const counts = countSeverities(report.findings);
  // By the findings' flags: counting builds no edit.
  const fixable = countFixable(report.findings, unsafeFixes);
  return {
    filePath: report.path,
    messages: report.findings.map(toJsonMessage),
    suppressedMessages: [],
    errorCount: counts.error,
    fatalErrorCount: 0,
    warningCount: counts.warning,
    fixableErrorCount: fixable.error,
    fixableWarningCount: fixable.warning,
    infoCount: counts.info,
    usedDeprecatedRules: [],
  };
}

/** countSeverities of the findings whose fix the run would apply, counted without a filtered copy. */
function countFixable(findings: readonly Finding[], unsafeFixes: boolean): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) if (fixApplies(finding, unsafeFixes)) counts[finding.severity]++;
  return counts;
}

function toJsonMessage(finding: Finding): JsonMessage {
  const { start, end } = finding.span;
  const message: JsonMessage = {
    ruleId: finding.ruleId,
    severity: SEVERITY_NUMBER[finding.severity],
    message: finding.message,
    line: start.line + 1,
    column: start.column + 1,
    endLine: end.line + 1,
    endColumn: end.column + 1,
  };
  // Assigned in this order (JSON.stringify keeps it), rather than spread from a temporary object per key.
  if (finding.detail !== undefined) message.detail = finding.detail;
  if (finding.withheld !== undefined) message.fixWithheld = finding.withheld;
  if (fixApplies(finding, true)) message.fixSafety = isUnsafeFix(finding) ? 'unsafe' : 'safe';
  return message;
}
