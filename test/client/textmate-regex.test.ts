// No regex in the TextMate grammars may backtrack super-linearly: VS Code runs them on the renderer's tokenizer for
// every line of every nginx file and Markdown fence, so one bad pattern freezes colouring (vscode-textmate only
// stops a line after its time limit, and then the rest of the file is uncoloured). Each match/begin/end/while is
// checked by recheck, the ReDoS checker test/robustness/regex-safety.test.ts uses for the sources.
//
// The grammars are Oniguruma regexes; recheck reads JavaScript ones. They are written in the common subset, except
// `\G` (where the previous match ended), which JavaScript lacks and would read as a literal `G`: it is checked as `^`,
// the same kind of zero-width anchor. Any other Oniguruma-only construct is refused below, so nothing goes unchecked.
import { readFileSync } from 'node:fs';
import { checkSync, type Parameters } from 'recheck';
import { describe, expect, it } from 'vitest';
import { grammarContributions, grammarFile } from './support/textmate.js';

/** As in test/robustness/regex-safety.test.ts: counting limits only, so a verdict does not depend on machine load. */
const RECHECK: Parameters = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null };
process.env.RECHECK_SYNC_BACKEND = 'pure';

const REGEX_KEYS = new Set(['match', 'begin', 'end', 'while']);

/**
 * Oniguruma syntax with no JavaScript reading, or a different one: `\A \z \Z \h \H \K`, possessive quantifiers,
 * atomic groups, inline options `(?i)`, absent operators `(?~`, and `\G` itself (handled by substitution).
 */
const ONIGURUMA_ONLY = /\\[AzZhHK]|[*+?}]\+|\(\?>|\(\?[imx-]+[:)]|\(\?~/;

interface GrammarRegex {
  where: string;
  source: string;
}

function regexesIn(node: unknown, where: string): GrammarRegex[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => regexesIn(item, `${where}[${index}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    REGEX_KEYS.has(key) && typeof value === 'string' ? [{ where: `${where}.${key}`, source: value }] : regexesIn(value, `${where}.${key}`),
  );
}

const found = grammarContributions.flatMap((contribution) => {
  const grammar = JSON.parse(readFileSync(grammarFile(contribution), 'utf8')) as object;
  return regexesIn(grammar, contribution.path);
});

function verdict(source: string): string {
  const diagnostics = checkSync(source.replaceAll('\\G', '^'), '', RECHECK);
  if (diagnostics.status === 'safe') return 'safe';
  if (diagnostics.status === 'vulnerable') return `vulnerable (${diagnostics.complexity.type}), e.g. ${diagnostics.attack.pattern}`;
  return `unknown (${diagnostics.error.kind})`;
}

describe('the TextMate grammar regexes', () => {
  it('are all found, in every contributed grammar', () => {
    expect(found.length).toBeGreaterThan(80);
    for (const contribution of grammarContributions) {
      expect(found.some((regex) => regex.where.startsWith(contribution.path)), contribution.path).toBe(true);
    }
  });

  it('are written in the syntax recheck can read (no Oniguruma-only construct but \\G)', () => {
    expect(found.filter((regex) => ONIGURUMA_ONLY.test(regex.source))).toEqual([]);
    // The refusal list works: it catches what it names.
    expect(['\\h+', 'a*+', '(?>a)', '(?i:a)', '\\Aa'].every((source) => ONIGURUMA_ONLY.test(source))).toBe(true);
  });

  it('recheck flags a grammar-style string regex that rescans from every quote', () => {
    expect(verdict(String.raw`"(?:[^"\\]|\\.)*"`)).toMatch(/^vulnerable \(polynomial\)/);
  });

  it('are linear: recheck finds no super-linear backtracking in any of them', () => {
    const unsafe = found.map((regex) => ({ ...regex, verdict: verdict(regex.source) })).filter((regex) => regex.verdict !== 'safe');
    expect(unsafe).toEqual([]);
  }, 300_000);
});
