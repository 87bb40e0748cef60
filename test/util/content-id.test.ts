// Content ids name diagnostics for "unchanged" answers: equal texts must get equal ids, different texts different
// ones. Both ways are held to it: node's (SHA-1) and the one the web worker uses without node:crypto.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentId, portableContentId } from '../../server/src/util/content-id.js';

describe('content ids', () => {
  it('use SHA-1 where node has it', () => {
    expect(contentId('[]')).toBe(createHash('sha1').update('[]').digest('hex').slice(0, 20));
  });

  for (const [name, id] of [['node', contentId], ['portable', portableContentId]] as const) {
    it(`(${name}) are equal for equal texts and differ for different ones`, () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
          expect(id(a)).toBe(id(`${a}`));
          if (a !== b) expect(id(a)).not.toBe(id(b));
        }),
        { numRuns: 5000 },
      );
      // Texts one character apart, as diagnostics one column apart serialise.
      const base = JSON.stringify([{ range: { start: { line: 3, character: 4 } } }]);
      expect(new Set(Array.from({ length: 1000 }, (_, column) => id(base.replace('"character":4', `"character":${column}`)))).size).toBe(1000);
    });
  }
});
