// The offending source line with the finding's span underlined, as compilers print it.
import type { Span } from '../util/types.js';
import type { Style } from './color.js';
import { mustEscape } from '../util/paths.js';

export interface FrameStyles {
  gutter: Style;
  marker: Style;
}

/** Lines split once per file; spans count lines by `\n`, and a `\r` before it is not shown. */
export function splitSourceLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Two lines: `  12 | <source line>` and `     | <spaces>^~~~`. The underline covers the span on its first line; a span
 * running onto later lines is underlined to the end of the first. Tabs before the span are copied into the indent so
 * the caret lines up whatever the terminal's tab width. Empty when the line does not exist (a stale or foreign span).
 */
export function codeFrame(lines: readonly string[], span: Span, styles: FrameStyles): string[] {
  const fullLine = lines[span.start.line];
  if (fullLine === undefined) return [];
  const lineNumber = String(span.start.line + 1);
  const fullEnd = span.end.line === span.start.line ? Math.min(span.end.column, fullLine.length) : fullLine.length;
  const cut = excerpt(fullLine, Math.min(span.start.column, fullLine.length), fullEnd);
  const { start, end } = cut;
  const lineText = visible(cut.lineText);
  const width = Math.max(1, end - start);
  const indent = lineText.slice(0, start).replace(/[^\t]/g, ' ');
  const underline = `^${'~'.repeat(width - 1)}`;
  return [
    `${styles.gutter(`${lineNumber} |`)} ${lineText}`,
    `${styles.gutter(`${' '.repeat(lineNumber.length)} |`)} ${indent}${styles.marker(underline)}`,
  ];
}

/**
 * The line with every character a terminal would act on (ESC sequences, bidi overrides, a carriage return) replaced by
 * one visible character, so a config cannot rewrite the screen or forge report lines, and the caret stays aligned:
 * C0 controls become their Unicode control pictures (ESC shows as ␛), the others U+FFFD. Tabs are kept.
 */
function visible(line: string): string {
  let result = '';
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && line.charCodeAt(i + 1) >= 0xdc00 && line.charCodeAt(i + 1) <= 0xdfff) {
      result += line.slice(i, i + 2);
      i++;
    } else if (code === 0x09 || !mustEscape(code)) {
      result += line[i];
    } else {
      result += code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
    }
  }
  return result;
}

/** Longest source line shown whole; a longer one is cut around the span, marked with `…` where cut. */
export const MAX_FRAME_COLUMNS = 200;
/** Columns kept before the span when a long line is cut. */
const CONTEXT_BEFORE = 40;

/**
 * A window of a long line around [start, end), with the span's columns in it. Why: a minified or generated file
 * can hold megabytes on one line, and printing the whole line once per finding on it makes the report quadratic.
 */
function excerpt(line: string, start: number, end: number): { lineText: string; start: number; end: number } {
  if (line.length <= MAX_FRAME_COLUMNS) return { lineText: line, start, end };
  const from = Math.max(0, Math.min(start - CONTEXT_BEFORE, line.length - MAX_FRAME_COLUMNS));
  const to = Math.min(line.length, from + MAX_FRAME_COLUMNS);
  const lead = from > 0 ? '…' : '';
  const lineText = `${lead}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  const shift = lead.length - from;
  return { lineText, start: start + shift, end: Math.min(end, to) + shift };
}
