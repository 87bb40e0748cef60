// Every reader of a file's text, on the hostile shapes of ./shapes.ts: the file sniff a directory walk and the language
// server run on every file, the --jobs include/upstream scan, analyze() and fixAll(), and the stylish report with its
// code frames. Each must return (an exponential regexp or a quadratic merge shows up as a run that never ends and
// hits the test timeout), throw nothing (a `push(...array)` of a huge array throws RangeError), crash no rule, and
// keep every finding inside its text. Fixes on a clean file leave it clean.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, INTERNAL_ERROR_RULE_ID } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/engine/syntax-check.js';
import type { SourceDocument } from '../../server/src/util/types.js';
import { looksLikeNginx } from '../../server/src/engine/nginx-files.js';
import { formatStylish } from '../../server/src/cli/format-stylish.js';
import { predictGroups } from '../../server/src/cli/parallel/predict-groups.js';
import { groupByFile } from '../../server/src/cli/report.js';
import { misplaced } from './findings.js';
import { hostileShape } from './shapes.js';
import { checkProperty, memoryHost, VIRTUAL_DIR } from './support.js';

/** Names that select the plain, Dokku-sigil and generic-template readings of the same text. */
const fileName = fc.constantFrom('nginx.conf', 'app.sigil', 'values.tmpl', 'site.conf');

/** One or two shaped files; the second may include the first (a long include argument is a shape too). */
const shapedWorkspace = fc.array(fc.record({ name: fileName, text: hostileShape }), { minLength: 1, maxLength: 2 }).map(
  (files): SourceDocument[] =>
    files.map(({ name, text }, index) => ({ path: path.join(VIRTUAL_DIR, index === 0 ? name : `b-${name}`), text })),
);

let isClean: SyntaxChecker;
beforeAll(async () => {
  isClean = await loadSyntaxChecker();
});

describe('hostile shapes', () => {
  it('the file sniff and the --jobs statement scan return on every shape', async () => {
    await checkProperty(
      'sniff and group prediction return',
      fc.asyncProperty(shapedWorkspace, async (docs) => {
        for (const doc of docs) expect(typeof looksLikeNginx(doc.text)).toBe('boolean');
        const groups = predictGroups(docs, { readRoots: [VIRTUAL_DIR], pathMap: [] });
        // Every document is in exactly one group.
        expect(groups.flat().sort((a, b) => a - b)).toEqual(docs.map((_, index) => index));
      }),
      30,
    );
  });

  it('analyze() returns, crashes no rule, and points every finding inside its text; the report formats', async () => {
    await checkProperty(
      'analyze returns on hostile shapes',
      fc.asyncProperty(shapedWorkspace, async (docs) => {
        const findings = await analyze(docs, { host: memoryHost(docs) });
        expect(findings.filter((finding) => finding.ruleId === INTERNAL_ERROR_RULE_ID)).toEqual([]);
        expect(misplaced(findings, new Map(docs.map((doc) => [doc.path, doc.text])))).toEqual([]);
        const report = formatStylish(groupByFile(docs, findings, VIRTUAL_DIR), { cwd: VIRTUAL_DIR, color: false });
        expect(findings.length === 0 || report.length > 0).toBe(true);
      }),
      30,
    );
  });

  it('fixAll() returns, never touches an unclean file, and leaves clean files clean', async () => {
    await checkProperty(
      'fixAll returns on hostile shapes',
      fc.asyncProperty(shapedWorkspace, async (docs) => {
        const result = await fixAll(docs, { host: memoryHost(docs) });
        for (const doc of docs) {
          const fixed = result.texts.get(doc.path);
          if (fixed === undefined) continue;
          expect(isClean(doc.path, doc.text), `${doc.path} had a syntax error and was fixed`).toBe(true);
          expect(isClean(doc.path, fixed), `${doc.path} is not clean after its fixes`).toBe(true);
        }
      }),
      20,
    );
  });
});
