// Fixture-driven rule tests. Every file test/fixtures/**/*.{conf,sigil,tmpl} is analysed alone, as a root; every
// directory test/fixtures/**/<name>.d/ is one case whose files are analysed together (its nginx.conf first, as the
// main file). Expectations are `# expect: <rule-id>` markers in the files (see support/expectations.ts): every
// finding must be expected and every expectation met.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/core/analyze.js';
import type { SourceDocument } from '../server/src/core/types.js';
import { compareFindings, parseFixture, type ActualFinding, type FixtureOptions } from './support/expectations.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const FIXTURE_FILE = /\.(conf|sigil|tmpl)$/;

interface FixtureCase {
  /** Name shown in test titles and problem lines, relative to test/fixtures. */
  name: string;
  /** Absolute paths; the main file first. */
  files: string[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      return statSync(full).isDirectory() ? listFiles(full) : [full];
    });
}

function collectCases(dir: string): FixtureCase[] {
  const cases: FixtureCase[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    const name = path.relative(fixturesDir, full);
    if (statSync(full).isDirectory()) {
      if (!entry.endsWith('.d')) {
        cases.push(...collectCases(full));
        continue;
      }
      const main = path.join(full, 'nginx.conf');
      const files = listFiles(full);
      if (!files.includes(main)) throw new Error(`${name}/ has no nginx.conf (the main file of a multi-file fixture)`);
      cases.push({ name: `${name}/`, files: [main, ...files.filter((f) => f !== main)] });
    } else if (FIXTURE_FILE.test(entry)) {
      cases.push({ name, files: [full] });
    }
  }
  return cases;
}

const cases = collectCases(fixturesDir);

async function check(fixture: FixtureCase): Promise<string[]> {
  const docs: SourceDocument[] = fixture.files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const expectedByFile = new Map(
    docs.map((doc) => [doc.path, parseFixture(doc.text, path.relative(fixturesDir, doc.path))] as const),
  );
  const options: FixtureOptions = expectedByFile.get(fixture.files[0]!)!.options;
  const findings = await analyze(docs, options.nginxVersion ? { nginxVersion: options.nginxVersion } : {});

  const actualByFile = new Map<string, ActualFinding[]>();
  for (const finding of findings) {
    const file = path.resolve(finding.file);
    const list = actualByFile.get(file) ?? [];
    list.push({ line: finding.span.start.line + 1, ruleId: finding.ruleId, message: finding.message });
    actualByFile.set(file, list);
  }
  const problems: string[] = [];
  for (const [file, parsed] of expectedByFile) {
    problems.push(...compareFindings(path.relative(fixturesDir, file), parsed.expected, actualByFile.get(file) ?? []));
    actualByFile.delete(file);
  }
  // Findings in files outside the fixture (e.g. an include that escaped it) are never expected.
  for (const [file, actual] of actualByFile) problems.push(...compareFindings(file, new Map(), actual));
  return problems;
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
