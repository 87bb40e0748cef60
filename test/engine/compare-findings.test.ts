// compareFindings compares rule ids by code unit (engine/analyze.ts says why: not loading ICU's collation data); the
// order it gives must be the one localeCompare gave, for every pair of ids a finding can carry.
import { describe, expect, it } from 'vitest';
import { compareFindings, INTERNAL_ERROR_RULE_ID } from '../../server/src/engine/analyze.js';
import { UNUSED_SUPPRESSION_RULE_ID } from '../../server/src/engine/suppressions.js';
import { rules } from '../../server/src/rules/registry.js';
import type { Finding } from '../../server/src/util/types.js';

const ids = [...new Set([...rules.map((rule) => rule.meta.id), INTERNAL_ERROR_RULE_ID, UNUSED_SUPPRESSION_RULE_ID])];
const at = (ruleId: string, file = '/etc/nginx/nginx.conf', start = 10, end = 20) =>
  ({ ruleId, file, span: { startOffset: start, endOffset: end } }) as unknown as Finding;

describe('compareFindings', () => {
  it('orders every pair of rule ids on one span as localeCompare did', () => {
    expect(ids.length).toBeGreaterThan(10);
    for (const a of ids) {
      expect(a).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      for (const b of ids) expect(Math.sign(compareFindings(at(a), at(b)))).toBe(Math.sign(a.localeCompare(b)));
    }
  });

  it('orders by file, then start, then end before the rule id', () => {
    const sorted = [at('syntax', '/b', 0, 5), at('directive', '/a', 9, 9), at('include', '/a', 3, 8), at('directive', '/a', 3, 4), at('upstream-keepalive', '/a', 3, 4)]
      .sort(compareFindings)
      .map((f) => `${f.file}:${f.span.startOffset}-${f.span.endOffset}:${f.ruleId}`);
    expect(sorted).toEqual(['/a:3-4:directive', '/a:3-4:upstream-keepalive', '/a:3-8:include', '/a:9-9:directive', '/b:0-5:syntax']);
  });
});
