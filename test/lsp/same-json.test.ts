// sameJson decides when a document's new diagnostics keep the previous resultId (a pull then answers "unchanged"):
// it must never call two different values the same, and should recognise a copy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../server/src/lsp/same-json.js';

const json = fc.jsonValue();

describe('sameJson', () => {
  it('holds for a value and its deep copy', () => {
    fc.assert(fc.property(json, (value) => sameJson(value, structuredClone(value))));
  });

  it('holds only for values that are deeply equal', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        if (sameJson(a, b)) expect(a).toStrictEqual(b);
      }),
    );
  });

  it('tells apart diagnostics that differ in one position, a missing field, or order', () => {
    const diagnostic = { range: { start: { line: 3, character: 4 }, end: { line: 3, character: 9 } }, message: 'm', code: 'r' };
    const moved = { ...diagnostic, range: { ...diagnostic.range, end: { line: 3, character: 10 } } };
    const { code: _code, ...withoutCode } = diagnostic;
    expect(sameJson([diagnostic], [structuredClone(diagnostic)])).toBe(true);
    expect(sameJson([diagnostic], [moved])).toBe(false);
    expect(sameJson([diagnostic], [withoutCode])).toBe(false);
    expect(sameJson([diagnostic, moved], [moved, diagnostic])).toBe(false);
    expect(sameJson([diagnostic], [diagnostic, diagnostic])).toBe(false);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
