// The `directive` fixtures and the measured duplicate set, checked with real nginx (Debian's 1.22.1): valid-* pass
// `nginx -t`; invalid-* fail, and nginx's first error is on the fixture's first `# expect: directive` line, in the
// fixture itself. Fixtures that need a newer nginx than this one (nginx-version above 1.22.1) are not run here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_REJECTED, DUPLICATE_SAMPLE_ARGUMENTS } from '../../server/src/analysis/directive-duplicates.js';
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
  it('are exactly those nginx rejects as "is duplicate" (each written twice in one location)', () => {
    const notRejected: string[] = [];
    for (const name of DUPLICATE_REJECTED) {
      const line = `${name} ${DUPLICATE_SAMPLE_ARGUMENTS[name] ?? ''};`.replace(' ;', ';');
      const result = nginxTestSnippets([`server {\nlisten 127.0.0.1:1;\nlocation / {\n${line}\n${line}\n}\n}\n`]);
      if (!result.errors[0]?.message.includes(`"${name}" directive is duplicate`)) notRejected.push(`${name}: ${result.output}`);
    }
    expect(notRejected).toEqual([]);
  }, 120_000);
});
