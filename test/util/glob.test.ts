// Include and command-line globs: matched by an automaton, so a hostile `include *a*a*a…b;` cannot stall the
// checker, with the answers the RegExp translation used to give.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, type GlobOptions } from '../../server/src/util/glob.js';

/**
 * The translation to a RegExp that compileGlob replaced, as the oracle. Its time grows as the name's length to the
 * power of the number of stars, so it is only run on short generated patterns.
 */
function oldGlobToRegExp(pattern: string, options: GlobOptions): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (options.globstar && pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (ch === '?') {
      source += '[^/]';
    } else if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        const body = pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += isValidClass(body) ? `[${body}]` : '(?!)';
        i = close;
      }
    } else {
      source += ch.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function isValidClass(body: string): boolean {
  try {
    new RegExp(`[${body}]`);
    return true;
  } catch {
    return false;
  }
}

describe('compileGlob', () => {
  it('matches as the RegExp translation did, on generated patterns and paths', () => {
    // No `]` right after `[` (now a member of the class, as in glob(3)) and no line breaks (`**` now spans them).
    const patternPiece = fc.constantFrom('*', '**', '**/', '?', '[ab]', '[!a]', '[a-c]', '[z-a]', '[', 'a', 'b', '/', '.', '\\');
    const namePiece = fc.constantFrom('a', 'b', 'c', '/', '.', '[', ']', '\\', 'ab/', 'z');
    const cases = fc.record({
      pattern: fc.array(patternPiece, { maxLength: 8 }).map((pieces) => pieces.join('')),
      name: fc.array(namePiece, { maxLength: 12 }).map((pieces) => pieces.join('')),
      globstar: fc.boolean(),
    });
    fc.assert(
      fc.property(cases, ({ pattern, name, globstar }) =>
        compileGlob(pattern, { globstar }).test(name) === oldGlobToRegExp(pattern, { globstar }).test(name),
      ),
      { seed: 20_261_121, numRuns: 20_000 },
    );
  });

  it('answers at once on a pattern of many stars that almost matches (a hang fails by timeout)', () => {
    const stars = `${'*a'.repeat(40)}*b`;
    expect(compileGlob(stars, { globstar: false }).test('a'.repeat(5_000))).toBe(false);
    expect(compileGlob(stars, { globstar: false }).test(`${'a'.repeat(5_000)}b`)).toBe(true);
    expect(compileGlob(`${'**/'.repeat(40)}x`, { globstar: true }).test(`${'d/'.repeat(2_000)}y`)).toBe(false);
  });

  it('keeps `*` and `?` inside one directory, lets `**` span them, and reads `[]a]` as glob(3) does', () => {
    expect(compileGlob('conf.d/*.conf', { globstar: false }).test('conf.d/x/y.conf')).toBe(false);
    expect(compileGlob('deploy/**/*.conf', { globstar: true }).test('deploy/a.conf')).toBe(true);
    expect(compileGlob('deploy/**/*.conf', { globstar: true }).test('deploy/x/y/b.conf')).toBe(true);
    expect(compileGlob('[]a].conf', { globstar: false }).test('].conf')).toBe(true);
    expect(compileGlob('[!a].conf', { globstar: false }).test('b.conf')).toBe(true);
    expect(compileGlob('[!a].conf', { globstar: false }).test('a.conf')).toBe(false);
  });
});
