// The offending source line with the finding's span underlined, as compilers print it.
import type { Span } from '../core/types.js';
import type { Style } from './color.js';

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
  const lineText = lines[span.start.line];
  if (lineText === undefined) return [];
  const lineNumber = String(span.start.line + 1);
  const start = Math.min(span.start.column, lineText.length);
  const end = span.end.line === span.start.line ? Math.min(span.end.column, lineText.length) : lineText.length;
  const width = Math.max(1, end - start);
  const indent = lineText.slice(0, start).replace(/[^\t]/g, ' ');
  const underline = `^${'~'.repeat(width - 1)}`;
  return [
    `${styles.gutter(`${lineNumber} |`)} ${lineText}`,
    `${styles.gutter(`${' '.repeat(lineNumber.length)} |`)} ${indent}${styles.marker(underline)}`,
  ];
}
