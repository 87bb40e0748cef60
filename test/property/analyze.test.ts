// analyze() on hostile text: random byte edits, syntax tokens, truncations and splices of real files. It must return
// (a hang would hit the test timeout), no rule may crash (a crash becomes an internal-error finding), and every
// finding and fix must point inside the text it is about, with line/column matching the offset.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, INTERNAL_ERROR_RULE_ID } from '../../server/src/engine/analyze.js';
import type { SourceDocument } from '../../server/src/util/types.js';
import { misplaced } from './findings.js';
import { checkProperty, memoryHost, mutate, mutation, seedFiles, VIRTUAL_DIR } from './support.js';

const seeds = seedFiles();
const seedTexts = seeds.map((seed) => seed.text);

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
