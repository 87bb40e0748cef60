// quotePatchName (patch headers) and suggestDirective ("did you mean") over arbitrary input: a quoted name is printable
// ASCII only and reads back, as git apply and GNU patch unquote it, to the name's UTF-8 bytes; a suggestion is a
// directive of the table at one edit from the name (or the same name with `-` as `_` in lower case).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestDirective } from '../../server/src/analysis/directive-suggestion.js';
import { allDirectives, directiveEntries } from '../../server/src/model/directive-table.js';
import { quotePatchName } from '../../server/src/util/unified-diff.js';
import { checkProperty } from './support.js';

const C_UNESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** The bytes a C-quoted name stands for, as git's unquote_c_style reads it. */
function unquote(quoted: string): Uint8Array {
  if (!quoted.startsWith('"')) return new TextEncoder().encode(quoted);
  const bytes: number[] = [];
  for (let i = 1; i < quoted.length - 1; i++) {
    if (quoted[i] !== '\\') {
      bytes.push(quoted.charCodeAt(i));
      continue;
    }
    const next = quoted[++i]!;
    if (next in C_UNESCAPES) bytes.push(C_UNESCAPES[next]!);
    else {
      bytes.push(parseInt(quoted.slice(i, i + 3), 8));
      i += 2;
    }
  }
  return Uint8Array.from(bytes);
}

/** At most one insertion, deletion, substitution or swap of neighbours apart (the plain definition, quadratic). */
/** Three words or more each, all alike but one. */
function oneWordApart(a: string, b: string): boolean {
  const wordsA = a.split('_');
  const wordsB = b.split('_');
  if (wordsA.length < 3 || wordsA.length !== wordsB.length) return false;
  return wordsA.filter((word, i) => word !== wordsB[i]).length === 1;
}

function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  for (let i = 0; i <= a.length; i++) {
    for (let c = 0; c < b.length; c++) {
      if (a.slice(0, i) + b[c] + a.slice(i) === b) return true;
      if (a.slice(0, i) + b[c] + a.slice(i + 1) === b) return true;
    }
    if (a.slice(0, i) + a.slice(i + 1) === b) return true;
    if (i + 1 < a.length && a.slice(0, i) + a[i + 1] + a[i] + a.slice(i + 2) === b) return true;
  }
  return false;
}

describe('patch names and directive suggestions, on arbitrary input', () => {
  it('quotes any name to printable ASCII that reads back to its bytes', async () => {
    await checkProperty(
      'quotePatchName round trip',
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), async (name) => {
        const quoted = quotePatchName(name);
        expect([...quoted].every((char) => char >= ' ' && char <= '~')).toBe(true);
        expect(unquote(quoted)).toEqual(new TextEncoder().encode(name));
      }),
      200,
    );
  });

  it('suggests only a table directive one edit or one word away (or the name normalised)', async () => {
    // Mostly a table name with one or two random edits (the typos suggestions are for), sometimes any word.
    const names = [...new Set(allDirectives().map((entry) => entry.name))];
    const edited = fc
      .tuple(fc.constantFrom(...names), fc.array(fc.tuple(fc.nat(), fc.constantFrom('', '-', '_', 'a', 's', 'X')), { minLength: 1, maxLength: 2 }))
      .map(([name, edits]) => edits.reduce((word, [at, text]) => word.slice(0, at % (word.length + 1)) + text + word.slice((at % (word.length + 1)) + (text === '' ? 1 : 0)), name));
    const nameLike = fc.oneof(edited, fc.stringMatching(/^[a-zA-Z_-]{1,24}$/));
    await checkProperty(
      'suggestDirective is close',
      fc.asyncProperty(nameLike, async (name) => {
        if (directiveEntries(name).length > 0) return;
        const suggestion = suggestDirective(name);
        if (suggestion === undefined) return;
        expect(directiveEntries(suggestion).length).toBeGreaterThan(0);
        const normal = name.toLowerCase().replace(/-/g, '_');
        expect(suggestion === normal || withinOneEdit(normal, suggestion) || oneWordApart(normal, suggestion)).toBe(true);
      }),
      300,
    );
  });
});
