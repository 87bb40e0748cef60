// Human output modelled on ESLint's "stylish": findings grouped under their file, each with a code frame. Fixable
// findings are marked as ruff marks them: `[*]` before the message when --fix applies the fix, `[*unsafe]` when only
// --unsafe-fixes does; a finding whose fix was withheld says why on a dim line under it. The summary ends with how
// many --fix would fix.
import { isFixable, type Finding, type Severity } from '../util/types.js';
import { countFixable, isUnsafeFix } from '../engine/fix-safety.js';
import { createPalette, type Palette, type Style } from './color.js';
import { codeFrame, splitSourceLines } from './code-frame.js';
import { displayPath, withoutControlCharacters } from '../util/paths.js';
import { countSeverities, type FileReport, type SeverityCounts } from './report.js';

export interface StylishOptions {
  cwd: string;
  color: boolean;
  /** The nginx version the findings assume and where it came from ("nginx 1.30 (Dockerfile:1)"): ends the summary. */
  target?: string;
  /** Files directory walks skipped as not nginx: counted under the summary, so a missed config is noticed. */
  skipped?: number;
  /** --verbose: each finding's detail (the why and the particulars) under its line. */
  verbose?: boolean;
  /** --unsafe-fixes was given: unsafe fixes count as what --fix would fix. */
  unsafeFixes?: boolean;
}

export const SAFE_FIX_MARKER = '[*]';
export const UNSAFE_FIX_MARKER = '[*unsafe]';

/** Empty when there is nothing to report, as ESLint's stylish is: a clean run prints nothing. */
export function formatStylish(reports: FileReport[], options: StylishOptions): string {
  const palette = createPalette(options.color);
  const withFindings = reports.filter((report) => report.findings.length > 0);
  if (withFindings.length === 0) return '';
  const sections = withFindings.map((report) => formatFile(report, options, palette));
  const findings = withFindings.flatMap((report) => report.findings);
  const fixable = fixableLine(findings, options.unsafeFixes === true);
  const skipped = options.skipped ? `  ${plural(options.skipped, 'file')} skipped as not nginx (--debug lists them)\n` : '';
  return `${sections.join('\n')}\n${formatSummary(countSeverities(findings), palette, options.target)}\n${fixable}${skipped}`;
}

function formatFile(report: FileReport, options: StylishOptions, palette: Palette): string {
  const lines = report.text === undefined ? [] : splitSourceLines(report.text);
  const widths = columnWidths(report.findings);
  const out = [palette.underline(displayPath(report.path, options.cwd))];
  for (const finding of report.findings) {
    out.push(formatMessageLine(finding, widths, palette));
    if (finding.withheld !== undefined) out.push(palette.dim(`    no fix: ${withoutControlCharacters(finding.withheld)}`));
    if (options.verbose && finding.detail !== undefined) {
      for (const line of finding.detail.split('\n')) out.push(`    ${withoutControlCharacters(line)}`.trimEnd());
    }
    const frame = codeFrame(lines, finding.span, { gutter: palette.dim, marker: severityStyle(finding.severity, palette) });
    for (const frameLine of frame) out.push(`    ${frameLine}`);
  }
  return `${out.join('\n')}\n`;
}

interface ColumnWidths {
  location: number;
  severity: number;
  message: number;
}

function columnWidths(findings: Finding[]): ColumnWidths {
  const widths: ColumnWidths = { location: 0, severity: 0, message: 0 };
  for (const finding of findings) {
    widths.location = Math.max(widths.location, location(finding).length);
    widths.severity = Math.max(widths.severity, finding.severity.length);
    widths.message = Math.max(widths.message, markerOf(finding).length + shownMessage(finding).length);
  }
  return widths;
}

/** `  12:5  warning  [*] message  rule-id`, columns aligned within the file (padding added before styling). */
function formatMessageLine(finding: Finding, widths: ColumnWidths, palette: Palette): string {
  const position = palette.dim(location(finding).padEnd(widths.location));
  const severity = severityStyle(finding.severity, palette)(finding.severity.padEnd(widths.severity));
  const marker = markerOf(finding);
  const message = shownMessage(finding).padEnd(widths.message - marker.length);
  const styledMarker = marker === '' ? '' : (isUnsafeFix(finding) ? palette.yellow : palette.green)(marker);
  return `  ${position}  ${severity}  ${styledMarker}${message}  ${palette.dim(finding.ruleId)}`;
}

/** The fix marker with its trailing space, or nothing. By the fix's own safety, whatever flags the run has. */
function markerOf(finding: Finding): string {
  if (!isFixable(finding)) return '';
  return `${isUnsafeFix(finding) ? UNSAFE_FIX_MARKER : SAFE_FIX_MARKER} `;
}

/** A message may quote config text (an include's argument): escaped like a file name, so it cannot drive the terminal. */
function shownMessage(finding: Finding): string {
  return withoutControlCharacters(finding.message);
}

function location(finding: Finding): string {
  return `${finding.span.start.line + 1}:${finding.span.start.column + 1}`;
}

function severityStyle(severity: Severity, palette: Palette): Style {
  return severity === 'error' ? palette.red : severity === 'warning' ? palette.yellow : palette.cyan;
}

function formatSummary(counts: SeverityCounts, palette: Palette, target: string | undefined): string {
  const total = counts.error + counts.warning + counts.info;
  // Which nginx the findings are for: they differ on either side of 1.29.7 (cli/run-target.ts).
  const text =
    `\u2716 ${plural(total, 'problem')} ` +
    `(${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info)` +
    (target === undefined ? '' : `, assuming ${target}`);
  const style = counts.error > 0 ? palette.red : counts.warning > 0 ? palette.yellow : palette.cyan;
  return palette.bold(style(text));
}

/**
 * `  3 fixable with --fix (1 more with --unsafe-fixes)`; `  1 fixable with --fix --unsafe-fixes` when only unsafe
 * fixes are left or the run has --unsafe-fixes (and some are unsafe); nothing when no finding is fixable. Counted by
 * the findings' flags: no edit is built to know.
 */
export function fixableLine(findings: Iterable<Finding>, unsafeFixes: boolean): string {
  const { applied: safe, unsafeOnly: unsafe } = countFixable(findings, false);
  if (unsafe === 0) return safe === 0 ? '' : `  ${safe} fixable with --fix\n`;
  if (unsafeFixes || safe === 0) return `  ${safe + unsafe} fixable with --fix --unsafe-fixes\n`;
  return `  ${safe} fixable with --fix (${unsafe} more with --unsafe-fixes)\n`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
