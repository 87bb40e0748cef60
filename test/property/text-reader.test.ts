// A plain file's model is read straight from its text (model/text-reader.ts); any other file's by walking its tree
// (model/statements.ts, which reads a tree without errors by a shorter path than one with errors). All three readers
// must build the same model: checked here on generated configurations, on character soup and on the corpus. And since
// the file loader skips the parse for a text the reader accepts, the reader must accept no text whose tree has errors.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Tree } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { buildConfigFile, buildPlainConfigFile } from '../../server/src/model/build.js';
import { LineIndex } from '../../server/src/model/line-index.js';
import { readStatements } from '../../server/src/model/statements.js';
import { readPlainStatements } from '../../server/src/model/text-reader.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { config, LUA_OPENERS, soup } from './plain-texts.js';
import { checkProperty, mutate, mutation, seedFiles } from './support.js';

function emptyFile(text: string): ConfigFile {
  return { path: '/virtual/x.conf', text, directives: [], templateControls: [], syntaxProblems: [], isTemplate: false, eol: '\n' };
}

/** The model's content without its back links (parent, file), guards by count. */
function shape(directives: readonly Directive[]): unknown {
  return directives.map((d) => ({
    name: d.name,
    nameSpan: d.nameSpan,
    args: d.args,
    span: d.span,
    blockSpan: d.blockSpan,
    condition: d.condition,
    indent: d.indent,
    guards: d.guards.length,
    parentName: d.parent?.name,
    children: shape(d.children),
  }));
}

interface Readings {
  plain: unknown;
  fastWalk: unknown;
  generalWalk: unknown;
}

/** The three readings of an error-free tree (plain is undefined when the text is not plain). */
function readAllWays(text: string, tree: Tree): Readings {
  const lines = new LineIndex(text);
  const plain = readPlainStatements(emptyFile(text), { text, lines, hasErrors: false });
  return {
    plain: plain && shape(plain),
    fastWalk: shape(readStatements(emptyFile(text), tree, { text, lines, hasErrors: false }).directives),
    generalWalk: shape(readStatements(emptyFile(text), tree, { text, lines, hasErrors: true }).directives),
  };
}

describe('the plain text reader and the tree walks build the same model', () => {
  it('on generated configurations', async () => {
    const parser = await loadNginxParser();
    let plainRead = 0;
    await checkProperty(
      'text reader = tree walk (configurations)',
      fc.asyncProperty(config, async (text) => {
        const tree = parser.parse(text);
        try {
          if (tree.rootNode.hasError) return;
          const readings = readAllWays(text, tree);
          if (readings.plain !== undefined) plainRead++;
          // A Lua piece may close its body early and leave a template opener outside: only that may be declined.
          if (readings.plain !== undefined || !LUA_OPENERS.some((opener) => text.includes(opener))) {
            expect(readings.plain).toEqual(readings.fastWalk);
          }
          expect(readings.generalWalk).toEqual(readings.fastWalk);
        } finally {
          tree.delete();
        }
      }),
      300,
    );
    // The generator writes plain nginx (and Lua): most of its output must have gone through the text reader.
    expect(plainRead).toBeGreaterThan(100);
  });

  it('on character soup', async () => {
    const parser = await loadNginxParser();
    await checkProperty(
      'text reader = tree walk (soup)',
      fc.asyncProperty(soup, async (text) => {
        const tree = parser.parse(text);
        try {
          if (tree.rootNode.hasError) return;
          const readings = readAllWays(text, tree);
          if (readings.plain !== undefined) expect(readings.plain).toEqual(readings.fastWalk);
          expect(readings.generalWalk).toEqual(readings.fastWalk);
        } finally {
          tree.delete();
        }
      }),
      2000,
    );
  });

  it('on every corpus file without syntax errors', async () => {
    const parser = await loadNginxParser();
    const corpus = path.resolve(import.meta.dirname, '../corpus');
    let compared = 0;
    for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated', 'jinja']) {
      for (const name of readdirSync(path.join(corpus, dir))) {
        const text = readFileSync(path.join(corpus, dir, name), 'utf8');
        const tree = parser.parse(text);
        try {
          if (tree.rootNode.hasError) continue;
          const readings = readAllWays(text, tree);
          if (readings.plain !== undefined) {
            compared++;
            expect(readings.plain, name).toEqual(readings.fastWalk);
          }
          expect(readings.generalWalk, name).toEqual(readings.fastWalk);
        } finally {
          tree.delete();
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

/** The model of `text` without a parse, and through its tree; the first is undefined when the text is not plain. */
function bothModels(text: string, parse: (text: string) => Tree): { plain: unknown; parsed: unknown; treeHasErrors: boolean } {
  const plain = buildPlainConfigFile('/virtual/x.conf', text);
  const tree = parse(text);
  try {
    const parsed = buildConfigFile('/virtual/x.conf', text, tree);
    const view = (file: ConfigFile) => ({ ...file, directives: shape(file.directives) });
    return { plain: plain && view(plain), parsed: view(parsed), treeHasErrors: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}

describe('a text the plain reader accepts needs no parse', () => {
  it('on character soup', async () => {
    const parser = await loadNginxParser();
    await checkProperty(
      'plain text => no tree errors, same file model (soup)',
      fc.asyncProperty(soup, async (text) => {
        const { plain, parsed, treeHasErrors } = bothModels(text, (t) => parser.parse(t));
        if (plain === undefined) return;
        expect(treeHasErrors).toBe(false);
        expect(plain).toEqual(parsed);
      }),
      2000,
    );
  });

  it('on mutated real files', async () => {
    const parser = await loadNginxParser();
    const seeds = seedFiles();
    await checkProperty(
      'plain text => no tree errors, same file model (mutations)',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutation, async (index, change) => {
        const text = mutate(seeds[index]!.text, change);
        const { plain, parsed, treeHasErrors } = bothModels(text, (t) => parser.parse(t));
        if (plain === undefined) return;
        expect(treeHasErrors).toBe(false);
        expect(plain).toEqual(parsed);
      }),
      300,
    );
  });

  it('on every corpus file', async () => {
    const parser = await loadNginxParser();
    const corpus = path.resolve(import.meta.dirname, '../corpus');
    let plainFiles = 0;
    for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated']) {
      for (const name of readdirSync(path.join(corpus, dir))) {
        const text = readFileSync(path.join(corpus, dir, name), 'utf8');
        const { plain, parsed, treeHasErrors } = bothModels(text, (t) => parser.parse(t));
        if (plain === undefined) continue;
        plainFiles++;
        expect(treeHasErrors, name).toBe(false);
        expect(plain, name).toEqual(parsed);
      }
    }
    expect(plainFiles).toBeGreaterThan(300);
  });
});
