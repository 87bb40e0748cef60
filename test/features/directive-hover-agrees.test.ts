// The directive hover and the directive rule agree: over every fixture and the corpus sample the fixtures hold, for
// nginx 1.22 and 1.30, the hover on a directive's name shows a ✗ verdict exactly where analyze() reports a
// `directive` finding, and then with that finding's headline. The hover reads the rule's detect() states
// (features/rule-states.ts); this test holds it to the findings the CLI prints.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { hoverAt } from '../../server/src/features/hover.js';
import type { Directive } from '../../server/src/model/types.js';
import { collectCases, FIXTURES_DIR, fixtureHost } from '../support/fixture-cases.js';

function* everyDirective(directives: readonly Directive[]): Generator<Directive> {
  for (const directive of directives) {
    yield directive;
    yield* everyDirective(directive.children);
  }
}

const VERDICT = '([directive](';
const cases = collectCases().filter((fixture) => fixture.files.every((file) => !readFileSync(file, 'utf8').includes('nginx-keepalive-ignore')));

describe('directive hover verdicts equal the directive findings', () => {
  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`on every fixture, for nginx ${nginxVersion}`, async () => {
      const problems: string[] = [];
      let shown = 0;
      for (const fixture of cases) {
        const docs = fixture.files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
        const options = { nginxVersion, host: fixtureHost() };
        const { workspace, findings } = await analyzeWorkspace(docs, options);
        const directiveFindings = findings.filter((f) => f.ruleId === 'directive');
        // A finding belongs to the statement whose words it is on: from the name to the `;` (or a block's `{`).
        const reportedAt = (directive: Directive) => {
          const end = directive.blockSpan ? directive.blockSpan.startOffset : directive.span.endOffset;
          return directiveFindings.find(
            (f) => f.file === directive.file.path && f.span.startOffset >= directive.nameSpan.startOffset && f.span.startOffset < end,
          )?.message;
        };
        for (const file of workspace.files) {
          for (const directive of everyDirective(file.directives)) {
            const hover = hoverAt({ workspace, file, options }, directive.nameSpan.startOffset);
            const where = `${path.relative(FIXTURES_DIR, file.path)}:${directive.nameSpan.start.line + 1} ${directive.name}`;
            const headline = reportedAt(directive);
            const verdict = hover?.markdown.split('\n').find((line) => line.startsWith('✗ ') && line.includes(VERDICT));
            if (headline === undefined && verdict) problems.push(`${where}: the hover says ${verdict}, the rule reports nothing`);
            if (headline !== undefined && !verdict?.startsWith(`✗ ${headline} `)) problems.push(`${where}: the rule reports "${headline}", the hover does not`);
            if (verdict) shown++;
          }
        }
      }
      expect(problems).toEqual([]);
      // Not vacuous: the directive fixtures are reported, and so shown.
      expect(shown).toBeGreaterThan(5);
    });
  }
});
