// reviewdog's Diagnostic Format (rdjson, `reviewdog -f=rdjson`): one DiagnosticResult whose diagnostics carry the
// finding's range and, where a fix applies, a suggestion reviewdog posts as a suggested change on the pull request.
// Positions are 1-based and columns count UTF-8 bytes, as reviewdog's schema says (it slices the line by them).
import path from 'node:path';
import type { Finding, Severity, TextEdit } from '../util/types.js';
import { docsUrl } from '../engine/docs-url.js';
import { fixApplies } from '../engine/fix-safety.js';
import type { RuleMeta } from '../analysis/rule-api.js';
import { TOOL_INFORMATION_URI } from './format-sarif.js';
import { repositoryPath, type FileReport } from './report.js';

type RdSeverity = 'ERROR' | 'WARNING' | 'INFO';
const SEVERITY: Record<Severity, RdSeverity> = { error: 'ERROR', warning: 'WARNING', info: 'INFO' };

/**
 * A fix's edits become one suggestion spanning them all (the text between them carried over), since reviewdog posts a
 * diagnostic's comment on its first suggestion's lines and GitHub applies one suggestion per comment. A suggestion
 * longer than this many lines would be a wall of unchanged text in a review comment: none is given (--fix has it).
 */
export const MAX_SUGGESTION_LINES = 40;

interface RdPosition {
  line: number;
  column: number;
}
interface RdRange {
  start: RdPosition;
  end: RdPosition;
}

export interface RdjsonOptions {
  cwd: string;
  /** The registered rules: their findings link to their docs page. */
  rules: readonly Pick<RuleMeta, 'id'>[];
  /** --unsafe-fixes: unsafe fixes are suggested too. */
  unsafeFixes: boolean;
}

export function formatRdjson(reports: FileReport[], options: RdjsonOptions): string {
  const documented = new Set(options.rules.map((rule) => rule.id));
  const diagnostics = reports.flatMap((report) => {
    const index = report.text === undefined ? undefined : new Utf8Positions(report.text);
    const file = repositoryPath(report.path, options.cwd);
    return report.findings.map((finding) => diagnostic(finding, file, report, index, documented, options));
  });
  const result = { source: { name: 'nginx-keepalive', url: TOOL_INFORMATION_URI }, diagnostics };
  return `${JSON.stringify(result, null, 2)}\n`;
}

function diagnostic(
  finding: Finding,
  file: string,
  report: FileReport,
  index: Utf8Positions | undefined,
  documented: ReadonlySet<string>,
  options: RdjsonOptions,
) {
  const { span } = finding;
  // Without the file's text, UTF-16 columns stand in (the same for ASCII, which nginx configs nearly always are).
  const range: RdRange = index
    ? { start: index.at(span.startOffset), end: index.at(span.endOffset) }
    : { start: { line: span.start.line + 1, column: span.start.column + 1 }, end: { line: span.end.line + 1, column: span.end.column + 1 } };
  const suggestion = index && report.text !== undefined ? suggestionOf(finding, report, index, options) : undefined;
  return {
    message: finding.message,
    location: { path: file, range },
    severity: SEVERITY[finding.severity],
    code: { value: finding.ruleId, ...(documented.has(finding.ruleId) ? { url: docsUrl(finding.ruleId) } : {}) },
    ...(suggestion ? { suggestions: [suggestion] } : {}),
  };
}

/**
 * The fix as one range/text pair, or none: a fix that --fix would not apply (unsafe without --unsafe-fixes), one
 * with an edit in another file (a suggestion lives in the diagnostic's file, and half a fix is no fix), or one
 * spanning more than MAX_SUGGESTION_LINES lines.
 */
function suggestionOf(finding: Finding, report: FileReport, index: Utf8Positions, options: RdjsonOptions) {
  if (!fixApplies(finding, options.unsafeFixes)) return undefined;
  const fix = finding.fix;
  if (!fix || fix.edits.length === 0) return undefined;
  // A built fix may say it is unsafe when the finding's flag did not (as SARIF reads it).
  if (!options.unsafeFixes && fix.safety === 'unsafe') return undefined;
  const file = path.resolve(options.cwd, finding.file);
  if (fix.edits.some((edit) => path.resolve(options.cwd, edit.file) !== file)) return undefined;
  const edits = [...fix.edits].sort((a, b) => a.startOffset - b.startOffset || a.endOffset - b.endOffset);
  const merged = mergeEdits(edits, report.text!);
  if (merged === undefined) return undefined;
  const range = { start: index.at(merged.startOffset), end: index.at(merged.endOffset) };
  if (range.end.line - range.start.line + 1 > MAX_SUGGESTION_LINES) return undefined;
  return { range, text: merged.newText };
}

/** Sorted, non-overlapping edits as one replacement of the text from the first to the last; undefined if they overlap. */
function mergeEdits(edits: readonly TextEdit[], text: string): Omit<TextEdit, 'file'> | undefined {
  const first = edits[0]!;
  const parts: string[] = [];
  let cursor = first.startOffset;
  for (const edit of edits) {
    if (edit.startOffset < cursor) return undefined;
    parts.push(text.slice(cursor, edit.startOffset), edit.newText);
    cursor = edit.endOffset;
  }
  if (cursor > text.length) return undefined;
  return { startOffset: first.startOffset, endOffset: cursor, newText: parts.join('') };
}

/** UTF-16 offsets to reviewdog positions: 1-based lines, 1-based columns in UTF-8 bytes. */
class Utf8Positions {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let offset = text.indexOf('\n'); offset !== -1; offset = text.indexOf('\n', offset + 1)) this.lineStarts.push(offset + 1);
  }

  at(offset: number): RdPosition {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    const lineStart = this.lineStarts[low]!;
    return { line: low + 1, column: Buffer.byteLength(this.text.slice(lineStart, offset), 'utf8') + 1 };
  }
}
