// What every finding of every property must satisfy, whatever the input: it points inside a text it was given, with
// line/column matching its offsets, and its fix's edits stay inside their files.
import type { Finding } from '../../server/src/util/types.js';
import { LineIndex } from '../../server/src/model/line-index.js';

/** Problems with where findings point; empty when every span and edit is inside its file's text. */
export function misplaced(findings: readonly Finding[], texts: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const finding of findings) {
    const text = texts.get(finding.file);
    if (text === undefined) {
      problems.push(`${finding.ruleId}: finding in a file nobody gave: ${finding.file}`);
      continue;
    }
    const { span } = finding;
    if (!(span.startOffset >= 0 && span.startOffset <= span.endOffset && span.endOffset <= text.length)) {
      problems.push(`${finding.ruleId}: span [${span.startOffset}, ${span.endOffset}) outside a text of ${text.length}`);
      continue;
    }
    const lines = new LineIndex(text);
    const expected = { start: lines.position(span.startOffset), end: lines.position(span.endOffset) };
    if (JSON.stringify(expected) !== JSON.stringify({ start: span.start, end: span.end })) {
      problems.push(`${finding.ruleId}: positions ${JSON.stringify(span)} do not match their offsets`);
    }
    for (const edit of finding.fix?.edits ?? []) {
      const target = texts.get(edit.file);
      if (target === undefined || edit.startOffset < 0 || edit.endOffset < edit.startOffset || edit.endOffset > target.length) {
        problems.push(`${finding.ruleId}: fix edit [${edit.startOffset}, ${edit.endOffset}) outside ${edit.file}`);
      }
    }
  }
  return problems;
}
