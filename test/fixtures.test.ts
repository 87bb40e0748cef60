// Fixture-driven rule tests. Every file test/fixtures/**/*.{conf,sigil,tmpl,j2} is analyzed alone, as a root; every
// directory test/fixtures/**/<name>.d/ is one case whose files are analyzed together (its nginx.conf first, as the
// main file). Expectations are `# expect: <rule-id>` markers in the files (see support/expectations.ts): every
// finding must be expected and every expectation met.
//
// Fix goldens (see support/fixture-cases.ts): an input `invalid-x.conf` with a sibling `invalid-x.fixed.conf` is also
// fixed with fixAll (same options: the fixture's nginx-version, the other files of a `.d` case), and
//   1. the fixed text must equal the golden byte for byte (files of a `.d` case without a golden must not change, and
//      no file outside the case may change);
//   2. the golden, analyzed under the input's name, must be clean: no finding of any fixable rule the input expected
//      (at any severity), no syntax finding, and no error or warning of any rule. `info` findings of other rules are allowed
//      (they are advice, not problems a fix leaves behind). The golden's own `# expect:` markers are ignored: they are
//      the input's markers, carried through by the fix;
//   3. fixAll on the golden changes nothing (fixing is idempotent).
// Only `invalid-` inputs may have goldens; a golden without its input, or equal to it, is an error.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { assert, describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { fixAll } from '../server/src/engine/fix-all.js';
import type { FileHost, Finding, SourceDocument } from '../server/src/util/types.js';
import type { AnalyzeOptions } from '../server/src/engine/types.js';
import { rules } from '../server/src/rules/registry.js';
import { compareFindings, parseFixture, type ActualFinding, type ParsedFixture } from './support/expectations.js';
import {
  FIXTURES_DIR,
  collectCases,
  collectGoldens,
  expectedFixedTexts,
  fixtureHost,
  inputPathOf,
  overlayHost,
  type FixtureCase,
} from './support/fixture-cases.js';
import { unifiedDiff } from './support/text-diff.js';

const cases = collectCases();
const fixCases = cases.filter((fixture) => fixture.goldens.size > 0);

const relative = (file: string): string => path.relative(FIXTURES_DIR, file);

function readDocs(fixture: FixtureCase): SourceDocument[] {
  return fixture.files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
}

function parseAll(docs: readonly SourceDocument[]): Map<string, ParsedFixture> {
  return new Map(docs.map((doc) => [doc.path, parseFixture(doc.text, relative(doc.path))] as const));
}

/** The analysis options a fixture states in its main file's `# nginx-keepalive-test:` comment. */
function analyzeOptionsOf(parsed: Map<string, ParsedFixture>, mainFile: string, host: FileHost): AnalyzeOptions {
  const { nginxVersion } = parsed.get(mainFile)!.options;
  return nginxVersion ? { nginxVersion, host } : { host };
}

async function check(fixture: FixtureCase): Promise<string[]> {
  const docs = readDocs(fixture);
  const expectedByFile = parseAll(docs);
  const findings = await analyze(docs, analyzeOptionsOf(expectedByFile, fixture.files[0]!, fixtureHost()));

  const actualByFile = new Map<string, ActualFinding[]>();
  for (const finding of findings) {
    const file = path.resolve(finding.file);
    const list = actualByFile.get(file) ?? [];
    list.push({ line: finding.span.start.line + 1, ruleId: finding.ruleId, message: finding.message });
    actualByFile.set(file, list);
  }
  const problems: string[] = [];
  for (const [file, parsed] of expectedByFile) {
    problems.push(...compareFindings(relative(file), parsed.expected, actualByFile.get(file) ?? []));
    actualByFile.delete(file);
  }
  // Findings in files outside the fixture (e.g. an include that escaped it) are never expected.
  for (const [file, actual] of actualByFile) problems.push(...compareFindings(file, new Map(), actual));
  return problems;
}

/** Rule ids the fixture's markers expect, in any of its files: the rules its fixes must leave no finding of. */
function expectedRuleIds(parsed: Map<string, ParsedFixture>): Set<string> {
  return new Set([...parsed.values()].flatMap((p) => [...p.expected.values()].flat()));
}

function describeFinding(finding: Finding): string {
  const where = `${relative(finding.file)}:${finding.span.start.line + 1}`;
  return `${where} ${finding.ruleId} (${finding.severity}) ${JSON.stringify(finding.message)}`;
}

/** 1: fixAll of the input gives the goldens, byte for byte, and touches nothing else. */
async function compareWithGoldens(fixture: FixtureCase, docs: SourceDocument[], options: AnalyzeOptions): Promise<string[]> {
  const problems: string[] = [];
  const result = await fixAll(docs, options);
  for (const file of result.texts.keys()) {
    if (!fixture.files.includes(path.resolve(file))) problems.push(`fixAll changed ${file}, which is outside the fixture`);
  }
  const expected = expectedFixedTexts(fixture);
  for (const doc of docs) {
    const actual = result.texts.get(doc.path) ?? doc.text;
    const want = expected.get(doc.path)!;
    if (actual === want) continue;
    const golden = fixture.goldens.get(doc.path);
    const label = golden ? relative(golden) : `${relative(doc.path)} (no golden: must stay unchanged)`;
    problems.push(
      `fixAll of ${relative(doc.path)} differs from ${label} (after ${result.passes} pass(es)):\n` +
        unifiedDiff(want, actual, { expected: label, actual: 'fixAll result' }),
    );
  }
  return problems;
}

/** 2 and 3: the goldens, seen under the inputs' names, are clean and fix to themselves. */
async function checkGoldensClean(fixture: FixtureCase, parsed: Map<string, ParsedFixture>, baseHost: FileHost): Promise<string[]> {
  const problems: string[] = [];
  const goldenTexts = expectedFixedTexts(fixture);
  const goldenDocs = fixture.files.map((file) => ({ path: file, text: goldenTexts.get(file)! }));
  const options = analyzeOptionsOf(parsed, fixture.files[0]!, overlayHost(baseHost, goldenTexts));
  // The rules whose findings the fixes resolve: expected ones that fix. A rule that never fixes (`include`'s note on a
  // templated include, said before and after any fix) is held to the other criteria: info, never a syntax finding.
  const fixedRules = new Set([...expectedRuleIds(parsed)].filter((id) => rules.find((rule) => rule.meta.id === id)?.meta.fixable !== false));
  for (const finding of await analyze(goldenDocs, options)) {
    const remains = fixedRules.has(finding.ruleId) || finding.ruleId === 'syntax' || finding.severity !== 'info';
    if (remains) problems.push(`golden is not clean (analyzed under its input's name): ${describeFinding(finding)}`);
  }
  const again = await fixAll(goldenDocs, options);
  for (const [file, text] of again.texts) {
    const golden = goldenTexts.get(path.resolve(file));
    if (text === golden) continue;
    problems.push(
      `fixAll changes the golden of ${relative(file)} (not idempotent):\n` +
        unifiedDiff(golden ?? '', text, { expected: 'golden', actual: 'fixAll of the golden' }),
    );
  }
  return problems;
}

async function checkFix(fixture: FixtureCase): Promise<string[]> {
  const docs = readDocs(fixture);
  const parsed = parseAll(docs);
  const host = fixtureHost();
  return [
    ...(await compareWithGoldens(fixture, docs, analyzeOptionsOf(parsed, fixture.files[0]!, host))),
    ...(await checkGoldensClean(fixture, parsed, host)),
  ];
}

/** Goldens that cannot belong to a fix case: orphans, goldens of valid fixtures, goldens equal to their input. */
function misplacedGoldens(): string[] {
  const problems: string[] = [];
  const owned = new Map(cases.flatMap((fixture) => [...fixture.goldens].map(([input, golden]) => [golden, { fixture, input }] as const)));
  for (const golden of collectGoldens()) {
    const owner = owned.get(golden);
    if (!owner) {
      const input = inputPathOf(golden);
      const why = existsSync(input) ? `${relative(input)} is not a fixture case` : `no input ${relative(input)} beside it`;
      problems.push(`${relative(golden)}: ${why}`);
      continue;
    }
    if (!path.basename(owner.fixture.name).startsWith('invalid-')) {
      problems.push(`${relative(golden)}: only invalid- fixtures have something to fix`);
    }
    if (readFileSync(golden, 'utf8') === readFileSync(owner.input, 'utf8')) {
      problems.push(`${relative(golden)}: equal to its input (an input without a golden must stay unchanged anyway)`);
    }
  }
  return problems;
}

/** Fixable rules with invalid- fixtures but no golden at all: their fixes would go untested. */
function fixableRulesWithoutGoldens(): string[] {
  const inDir = (id: string, list: readonly FixtureCase[]) => list.some((fixture) => fixture.name.startsWith(`${id}/`));
  const invalidCases = cases.filter((fixture) => path.basename(fixture.name).startsWith('invalid-'));
  return rules
    .filter((rule) => rule.meta.fixable && inDir(rule.meta.id, invalidCases))
    .map((rule) => rule.meta.id)
    .filter((id) => !inDir(id, fixCases));
}

describe('fixtures', () => {
  it('finds the fixtures, and valid-/invalid- names agree with their markers', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
    const wrong: string[] = [];
    for (const fixture of cases) {
      const base = path.basename(fixture.name);
      const markers = fixture.files
        .map((file) => parseFixture(readFileSync(file, 'utf8'), file).expected.size)
        .reduce((a, b) => a + b, 0);
      if (base.startsWith('valid-') && markers > 0) wrong.push(`${fixture.name}: valid- fixture with expect markers`);
      if (base.startsWith('invalid-') && markers === 0) wrong.push(`${fixture.name}: invalid- fixture without expect markers`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, fixture) => {
    expect(await check(fixture)).toEqual([]);
  });
});

describe('fix goldens', () => {
  it('never takes a golden as an input, and every golden belongs to an invalid- input', () => {
    expect(cases.flatMap((fixture) => fixture.files).filter((file) => /\.fixed\.[^.]+$/.test(file))).toEqual([]);
    expect(misplacedGoldens()).toEqual([]);
  });

  it('every fixable rule with invalid- fixtures has at least one golden', () => {
    expect(fixableRulesWithoutGoldens()).toEqual([]);
  });

  it.each(fixCases.map((c) => [c.name, c] as const))('fixAll of %s gives its golden, which is clean and stable', async (_name, fixture) => {
    const problems = await checkFix(fixture);
    // One readable report (diffs included) rather than an array diff of it.
    if (problems.length > 0) assert.fail(problems.join('\n\n'));
  });
});
