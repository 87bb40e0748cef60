// The playground's core against the CLI on the same text and file name: the findings (rule and line) of `check
// --format json`, and the text `check --fix` writes, on the three configs of cases.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkText } from '../../server/src/playground/check-text.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { caseText, cliVerdict, PLAYGROUND_CASES } from './cases.js';

describe('checkText (the playground core)', () => {
  for (const entry of PLAYGROUND_CASES) {
    const { fileName, source, nginxVersion } = entry;
    it(`gives the CLI's findings and fixed text for ${source}`, async () => {
      const text = caseText(entry);
      const expected = cliVerdict(text, fileName, nginxVersion);
      const result = await checkText({ text, fileName, nginxVersion });
      expect(result.findings.map((f) => `${f.ruleId}@${f.line}`).sort()).toEqual(expected.findings);
      expect(expected.findings.length).toBeGreaterThan(0);
      expect(result.fixedText).toBe(expected.fixed);
      expect(result.diff === '').toBe(expected.fixed === text);
    });
  }

  it('names each rule finding with its description and documentation page', async () => {
    const text = caseText(PLAYGROUND_CASES[0]!);
    const { findings } = await checkText({ text, fileName: 'nginx.conf' });
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expect(finding.docs?.url).toContain(`docs/rules/${finding.ruleId}.md`);
  });

  it('rewrites a pass to a third party into an upstream but never copies the client address into it (issue 25)', async () => {
    const text = readFileSync(path.join(FIXTURES_DIR, 'proxy-set-header-inheritance/invalid-third-party-rewritten.conf'), 'utf8');
    const result = await checkText({ text, fileName: 'nginx.conf', nginxVersion: '1.22.1' });
    expect(result.fixedText).toContain('proxy_pass https://backend_api_payments_example_443;');
    const location = result.fixedText.slice(result.fixedText.indexOf('location /pay/ {'));
    expect(location.slice(0, location.indexOf('}'))).not.toMatch(/X-Real-IP|X-Forwarded-For/);
    expect(result.fixedText).toBe(cliVerdict(text, 'nginx.conf', '1.22.1').fixed);
  });

  it('reports a version that is not one as analyze() does', async () => {
    await expect(checkText({ text: 'events {}\n', fileName: 'nginx.conf', nginxVersion: 'latest' })).rejects.toThrow(/nginxVersion must look like/);
  });
});
