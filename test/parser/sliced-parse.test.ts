// parseInSlices: the language server's parse of a long text, a slice at a time with the event loop let through in
// between (lsp/analysis-service.ts). It must give the tree a parse in one go gives, even when the shared parser parses
// other texts between its slices, and stop at its time limit.
import { describe, expect, it } from 'vitest';
import { loadNginxParser, ParseTimeoutError } from '../../server/src/parser/loader.js';

const TEXT = `http {\n${Array.from({ length: 2_000 }, (_, i) => `  server { listen ${1 + i}; location / { proxy_pass http://a{{ .X }}; } }\n`).join('')}}\n`;

describe('parseInSlices', () => {
  it('gives the tree of a parse in one go, while the shared parser parses other texts between its slices', async () => {
    const parser = await loadNginxParser();
    let turns = 0;
    let stop = false;
    // Runs once per turn of the event loop while the sliced parse goes on, parsing on the shared parser.
    const between = (): void => {
      if (stop) return;
      turns++;
      parser.parse('listen 80;\n').delete();
      setImmediate(between);
    };
    setImmediate(between);
    const sliced = await parser.parseInSlices(TEXT, null, { sliceMs: 1 });
    stop = true;
    const whole = parser.parse(TEXT);
    try {
      expect(sliced.rootNode.toString()).toBe(whole.rootNode.toString());
      // The event loop ran between slices: a parse of this length takes well over one 1 ms slice.
      expect(turns).toBeGreaterThan(1);
    } finally {
      sliced.delete();
      whole.delete();
    }
  });

  it('stops at its time limit with the same error as a parse in one go', async () => {
    const parser = await loadNginxParser();
    await expect(parser.parseInSlices(TEXT.repeat(20), null, { timeoutMs: 5, sliceMs: 1 })).rejects.toBeInstanceOf(ParseTimeoutError);
  });
});
