// analyze() on hostile text: random byte edits, syntax tokens, truncations and splices of real files. It must return
// (a hang would hit the test timeout), no rule may crash (a crash becomes an internal-error finding), and every
// finding and fix must point inside the text it is about, with line/column matching the offset.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, INTERNAL_ERROR_RULE_ID } from '../../server/src/core/analyze.js';
import type { Finding, SourceDocument } from '../../server/src/core/types.js';
import { LineIndex } from '../../server/src/model/line-index.js';
import { checkProperty, memoryHost, mutate, mutation, seedFiles, VIRTUAL_DIR } from './support.js';

const seeds = seedFiles();
const seedTexts = seeds.map((seed) => seed.text);

/** Problems with where findings point; empty when every span and edit is inside its file's text. */
function misplaced(findings: readonly Finding[], texts: ReadonlyMap<string, string>): string[] {
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

/** One to three mutated seed files, named so that they can include each other (x.conf, *.conf). */
const workspaceCase = fc.array(fc.record({ seed: fc.nat({ max: seeds.length - 1 }), mutation }), { minLength: 1, maxLength: 3 });

describe('analyze() on mutated files', () => {
  it('never throws, never crashes a rule, and points every finding inside its text', async () => {
    await checkProperty(
      'analyze never throws',
      fc.asyncProperty(workspaceCase, async (files) => {
        const docs: SourceDocument[] = files.map(({ seed, mutation: change }, index) => ({
          path: path.join(VIRTUAL_DIR, index === 0 ? 'nginx.conf' : index === 1 ? 'x.conf' : `site${index}.conf`),
          text: mutate(seeds[seed]!.text, change, seedTexts),
        }));
        const findings = await analyze(docs, { host: memoryHost(docs) });
        expect(findings.filter((finding) => finding.ruleId === INTERNAL_ERROR_RULE_ID)).toEqual([]);
        expect(misplaced(findings, new Map(docs.map((doc) => [doc.path, doc.text])))).toEqual([]);
      }),
      40,
    );
  });
});
