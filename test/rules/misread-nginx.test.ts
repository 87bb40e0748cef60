// The rule fixtures that expect a `syntax` finding (a placeholder committed in a template, a statement swallowed for
// want of a `;`), checked with real nginx: nginx -t rejects each, its first error is in the fixture, on the fixture's
// first `# expect: syntax` line, and says what our syntax finding on that line says. These are the fixtures where no
// keepalive rule may report past the error (analysis/misread.ts): nginx must really stop where they say it does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { FileHost } from '../../server/src/util/types.js';
import { parseFixture } from '../support/expectations.js';
import { FIXTURES_DIR, collectCases } from '../support/fixture-cases.js';
import { nginxContextOf } from '../support/nginx-context.js';
import { nginxTest, requireNginx, wrapInclude } from '../support/nginx.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

/** Single-file plain rule fixtures with a `syntax` expectation, and that expectation's first line. */
const cases = collectCases()
  .filter((fixture) => !fixture.name.startsWith('syntax/') && fixture.files.length === 1 && fixture.files[0]!.endsWith('.conf'))
  .flatMap((fixture) => {
    const file = fixture.files[0]!;
    const parsed = parseFixture(readFileSync(file, 'utf8'), path.relative(FIXTURES_DIR, file));
    const lines = [...parsed.expected].filter(([, ids]) => ids.includes('syntax')).map(([line]) => line);
    return lines.length === 0 ? [] : [{ name: fixture.name, file, line: Math.min(...lines), context: parsed.options.context }];
  });

describe('real nginx stops where the rule fixtures say the syntax error is', () => {
  it('finds nginx and the fixtures', () => {
    requireNginx();
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'upstream-keepalive/invalid-server-swallows-keepalive.conf',
        'proxy-http-version/invalid-listen-swallows-server-name.conf',
        'proxy-http-version/invalid-placeholder-at-server-level.conf',
        'connection-header-missing/invalid-placeholder-in-location.conf',
        'upstream-keepalive/invalid-after-placeholder.conf',
      ]),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('nginx -t stops on the first syntax line of %s, in our words', async (_name, c) => {
    const text = readFileSync(c.file, 'utf8');
    const context = await nginxContextOf(c.file, text, c.context);
    const result = nginxTest((prefix) => wrapInclude(c.file, context, prefix));
    expect(result.ok, result.output).toBe(false);
    const first = result.errors[0];
    expect(first?.file, result.output).toBe(c.file);
    expect(first?.line, result.output).toBe(c.line);
    const findings = await analyze([{ path: c.file, text }], { host: isolated });
    const ours = findings.find((finding) => finding.ruleId === 'syntax' && finding.span.start.line + 1 === c.line);
    expect(ours?.message).toBe(first!.message);
  });
});
