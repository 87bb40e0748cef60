// A plain text's semantic tokens come from one scan of its text (features/plain-semantic-tokens.ts), without the wasm
// parser; every other text's from its tree (collectSemanticTokens). The scan must accept exactly the texts the text
// reader reads and give, for each, the tokens the tree gives, for the whole text and for any range of it: checked on
// generated configurations, character soup, mutated real files and the whole corpus. So must the pieces the language
// server keeps per version (TokenPieces), replayed for the whole text or a range, for plain texts and templates alike.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectPlainSemanticTokens, collectPlainTokens } from '../../server/src/features/plain-semantic-tokens.js';
import { LineIndex } from '../../server/src/features/positions.js';
import { collectSemanticTokens, collectTreeTokens, TokenPieces, toLineTokens } from '../../server/src/features/semantic-tokens.js';
import { buildPlainConfigFile } from '../../server/src/model/build.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { config, soup } from './plain-texts.js';
import { checkProperty, mutate, mutation, seedFiles } from './support.js';

/** A range by two fractions of the text's length. */
const range = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }));

/** Asserts the scan's tokens (full, and of the range) equal the tree's; true when the text was plain. */
function sameTokens(parser: NginxParser, text: string, [a, b]: [number, number] = [0, 1], label?: string): boolean {
  const plain = collectPlainSemanticTokens(text);
  expect(plain !== undefined, `${label ?? JSON.stringify(text)}: scan accepts iff the reader does`).toBe(buildPlainConfigFile('/x.conf', text) !== undefined);
  const from = Math.floor(Math.min(a, b) * text.length);
  const to = Math.ceil(Math.max(a, b) * text.length);
  const offsets = { startOffset: from, endOffset: to };
  const full = collectSemanticTokens(parser, text);
  const ranged = collectSemanticTokens(parser, text, offsets);
  // The pieces the language server keeps per version, replayed for the whole text and for the range.
  const pieces = new TokenPieces(text.length);
  if (!collectPlainTokens(text, pieces)) {
    const treePieces = new TokenPieces(text.length);
    collectTreeTokens(parser, text, treePieces);
    expect(toLineTokens(treePieces.replay(), new LineIndex(text)), label).toEqual(full);
    expect(toLineTokens(treePieces.replay(offsets), new LineIndex(text)), label).toEqual(ranged);
  }
  if (plain === undefined) return false;
  expect(plain, label).toEqual(full);
  expect(collectPlainSemanticTokens(text, offsets), label).toEqual(ranged);
  expect(toLineTokens(pieces.replay(), new LineIndex(text)), label).toEqual(full);
  expect(toLineTokens(pieces.replay(offsets), new LineIndex(text)), label).toEqual(ranged);
  return true;
}

describe('plain semantic tokens = the tree walk\'s', () => {
  it('on generated configurations', async () => {
    const parser = await loadNginxParser();
    let plain = 0;
    await checkProperty(
      'plain tokens = tree tokens (configurations)',
      fc.asyncProperty(config, range, async (text, r) => {
        if (sameTokens(parser, text, r)) plain++;
      }),
      300,
    );
    expect(plain).toBeGreaterThan(100);
  });

  it('on character soup', async () => {
    const parser = await loadNginxParser();
    await checkProperty(
      'plain tokens = tree tokens (soup)',
      fc.asyncProperty(soup, range, async (text, r) => {
        sameTokens(parser, text, r);
      }),
      2000,
    );
  });

  it('on mutated real files', async () => {
    const parser = await loadNginxParser();
    const seeds = seedFiles();
    await checkProperty(
      'plain tokens = tree tokens (mutations)',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutation, range, async (index, change, r) => {
        sameTokens(parser, mutate(seeds[index]!.text, change), r);
      }),
      300,
    );
  });

  it('on every corpus file', async () => {
    const parser = await loadNginxParser();
    const corpus = path.resolve(import.meta.dirname, '../corpus');
    let plain = 0;
    for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated', 'jinja']) {
      for (const name of readdirSync(path.join(corpus, dir))) {
        const text = readFileSync(path.join(corpus, dir, name), 'utf8');
        if (sameTokens(parser, text, [0.3, 0.6], name)) plain++;
      }
    }
    expect(plain).toBeGreaterThan(300);
  });
});
