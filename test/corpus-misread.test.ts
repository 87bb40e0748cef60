// Past a file's first syntax error nginx reads nothing, so no keepalive rule may report there (analysis/misread.ts):
// over every corpus file, each checked alone, no finding of a rule other than syntax, directive, include and
// unused-suppression starts at or after the file's first syntax finding. OpenVidu's openvidu-proxy templates
// (`{xframe_options}` on their first line) got upstream-keepalive warnings and fixes there before.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import type { FileHost } from '../server/src/util/types.js';
import { entries } from './corpus/manifest.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const NOT_KEEPALIVE = new Set(['syntax', 'directive', 'include', 'unused-suppression']);

describe('no keepalive finding past a syntax error, on the corpus', () => {
  it('holds for every corpus file, and the corpus has such files', async () => {
    const problems: string[] = [];
    let withErrors = 0;
    for (const entry of entries) {
      const text = readFileSync(entry.absPath, 'utf8');
      const findings = await analyze([{ path: entry.absPath, text }], { host: isolated });
      const first = Math.min(...findings.filter((f) => f.ruleId === 'syntax').map((f) => f.span.startOffset));
      if (first === Infinity) continue;
      withErrors++;
      for (const finding of findings) {
        if (NOT_KEEPALIVE.has(finding.ruleId) || finding.span.startOffset < first) continue;
        problems.push(`${entry.file}:${finding.span.start.line + 1} ${finding.ruleId}`);
      }
    }
    expect(withErrors).toBeGreaterThanOrEqual(10);
    expect(problems).toEqual([]);
  });
});
