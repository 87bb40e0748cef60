// The `directive` fixtures and the measured duplicate set, checked with real nginx (Debian's 1.22.1): valid-* pass
// `nginx -t`; invalid-* fail, and nginx's first error is on the fixture's first `# expect: directive` line, in the
// fixture itself. Fixtures that need a newer nginx than this one (nginx-version above 1.22.1) are not run here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_REJECTED, DUPLICATE_SAMPLE_ARGUMENTS, REPEAT_SAMPLE_ARGUMENTS, refusesSecond } from '../../server/src/analysis/directive-duplicates.js';
import { directiveIn } from '../../server/src/model/directive-table.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { parseFixture } from '../support/expectations.js';
import { makePrefix, nginxTest, nginxTestFile, nginxTestSnippets, wrapInclude, type NginxTestResult } from '../support/nginx.js';

const dir = path.join(FIXTURES_DIR, 'directive');
const fixtures = readdirSync(dir).filter((name) => name.endsWith('.conf')).sort();

function testAsMain(file: string): NginxTestResult {
  const prefix = makePrefix();
  try {
    return nginxTestFile(file, prefix);
  } finally {
    prefix.remove();
  }
}

function run(file: string) {
  const parsed = parseFixture(readFileSync(file, 'utf8'), path.basename(file));
  const context = parsed.options.context ?? 'http';
  // A main-context fixture is a whole config (its load_module lines must come first): tested as it is.
  const result = context === 'main' ? testAsMain(file) : nginxTest((prefix) => wrapInclude(file, context, prefix, parsed.options.modules ?? []));
  const firstExpected = [...parsed.expected.keys()].sort((a, b) => a - b)[0];
  return { result, firstExpected };
}

describe('real nginx agrees with the directive fixtures', () => {
  it('has valid and invalid fixtures', () => {
    expect(fixtures.filter((name) => name.startsWith('valid-')).length).toBeGreaterThanOrEqual(2);
    expect(fixtures.filter((name) => name.startsWith('invalid-')).length).toBeGreaterThanOrEqual(7);
  });

  it.each(fixtures.filter((name) => name.startsWith('valid-')))('nginx -t accepts %s', (name) => {
    const { result } = run(path.join(dir, name));
    expect(result.ok, result.output).toBe(true);
  });

  it.each(fixtures.filter((name) => name.startsWith('invalid-')))('nginx -t rejects %s on the expected line', (name) => {
    const file = path.join(dir, name);
    const { result, firstExpected } = run(file);
    expect(result.ok, result.output).toBe(false);
    expect(result.errors[0]?.file, result.output).toBe(file);
    expect(result.errors[0]?.line, result.output).toBe(firstExpected);
  });
});

describe('the duplicates the rule reports', () => {
  // The set is generated from the handlers (analysis/directive-duplicates.ts); these samples measure it.
  const locationEntry = (name: string) => directiveIn(name, 'location')!;
  const twice = (name: string, args: string) => {
    const line = `${name} ${args};`.replace(' ;', ';');
    return nginxTestSnippets([`server {\nlisten 127.0.0.1:1;\nlocation / {\n${line}\n${line}\n}\n}\n`]);
  };

  it('holds directives nginx rejects as "is duplicate" (each written twice in one location)', () => {
    const wrong: string[] = [];
    for (const [name, args] of Object.entries(DUPLICATE_SAMPLE_ARGUMENTS)) {
      if (!refusesSecond(locationEntry(name))) wrong.push(`${name}: not in the generated set`);
      const result = twice(name, args);
      if (!result.errors[0]?.message.includes(`"${name}" directive is duplicate`)) wrong.push(`${name}: ${result.output}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('leaves out directives nginx accepts twice in one location (proxy_redirect, add_header, error_page...)', () => {
    const wrong: string[] = [];
    for (const [name, args] of Object.entries(REPEAT_SAMPLE_ARGUMENTS)) {
      if (refusesSecond(locationEntry(name))) wrong.push(`${name}: in the generated set`);
      const result = twice(name, args);
      if (!result.ok) wrong.push(`${name}: ${result.output}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
