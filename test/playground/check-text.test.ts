// The playground's core against the CLI on the same text and file name: the findings (rule and line) of `check
// --format json`, and the text `check --fix` writes, on the three configs of cases.ts.
import { describe, expect, it } from 'vitest';
import { checkText } from '../../server/src/playground/check-text.js';
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

  it('reports a version that is not one as analyze() does', async () => {
    await expect(checkText({ text: 'events {}\n', fileName: 'nginx.conf', nginxVersion: 'latest' })).rejects.toThrow(/nginxVersion must look like/);
  });
});
