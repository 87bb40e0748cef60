// An incremental re-parse (tree.edit + parse(text, oldTree), as the language server does on every keystroke) must
// give the model and the findings a fresh parse of the same text gives, after any sequence of edits.
//
// The server's policy is replayed exactly: a re-parse whose tree has an error is thrown away and the text parsed
// afresh (tree-sitter's error recovery can depend on the tree it reuses: `{{ $s }}A!` after some edits reads as one
// directive name, parsed afresh as name `A` and argument `!`; see server/src/lsp/open-document.ts). So an
// incremental tree that is kept has no error, and must equal the fresh one.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Edit, type Point, type Tree } from 'web-tree-sitter';
import { analyze } from '../../server/src/engine/analyze.js';
import type { ConfigFile, Directive, ModelCache } from '../../server/src/model/types.js';
import { buildConfigFile } from '../../server/src/model/build.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { checkProperty, memoryHost, seedFiles, VIRTUAL_DIR, plainModel } from './support.js';

const seeds = seedFiles();

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

/** Tree-sitter's point of a UTF-16 offset: rows end at `\n` only, columns count UTF-16 units. */
function pointAt(text: string, offset: number): Point {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let row = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) row++;
  return { row, column: offset - lineStart };
}

interface TextChange {
  at: number;
  deleted: number;
  inserted: string;
}

const INSERTIONS = ['{', '}', ';', '"', "'", '{{', '}}', '{{ end }}', '\n', '\r\n', '#', ' ', 'x', 'location / {', 'é', '😀',
  '{%', '%}', '{% endif %}', '{#', '#}'];

const change: fc.Arbitrary<TextChange> = fc.record({
  at: fc.nat({ max: 1_000_000 }),
  deleted: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  inserted: fc.oneof(fc.constantFrom(...INSERTIONS), fc.string({ maxLength: 6 })),
});

/** Applies `changes` one by one, editing and re-parsing the previous tree each time (as the server keeps it). */
function reparseIncrementally(initial: string, changes: readonly TextChange[]): { text: string; tree: Tree } {
  let text = initial;
  let tree = parser.parse(text);
  for (const { at: rawAt, deleted, inserted } of changes) {
    const at = rawAt % (text.length + 1);
    const end = Math.min(text.length, at + deleted);
    const next = text.slice(0, at) + inserted + text.slice(end);
    tree.edit(
      new Edit({
        startIndex: at,
        oldEndIndex: end,
        newEndIndex: at + inserted.length,
        startPosition: pointAt(text, at),
        oldEndPosition: pointAt(text, end),
        newEndPosition: pointAt(next, at + inserted.length),
      }),
    );
    let reparsed = parser.parse(next, tree);
    if (reparsed.rootNode.hasError) {
      reparsed.delete();
      reparsed = parser.parse(next);
    }
    tree.delete();
    tree = reparsed;
    text = next;
  }
  return { text, tree };
}

describe('incremental re-parse', () => {
  it('builds the same model, and analyze() finds the same, as a fresh parse', async () => {
    await checkProperty(
      'incremental parse equals fresh parse',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), fc.array(change, { minLength: 1, maxLength: 5 }), async (seed, changes) => {
        const file = path.join(VIRTUAL_DIR, path.basename(seeds[seed]!.name));
        const { text, tree } = reparseIncrementally(seeds[seed]!.text, changes);
        let incremental: ConfigFile;
        try {
          incremental = buildConfigFile(file, text, tree);
        } finally {
          tree.delete();
        }
        const freshTree = parser.parse(text);
        let fresh: ConfigFile;
        try {
          fresh = buildConfigFile(file, text, freshTree);
        } finally {
          freshTree.delete();
        }
        expect(plainModel(incremental)).toEqual(plainModel(fresh));

        const doc = { path: file, text };
        const models: ModelCache = { get: (asked, askedText) => (asked === file && askedText === text ? incremental : undefined) };
        const host = memoryHost([doc]);
        expect(await analyze([doc], { host, models })).toEqual(await analyze([doc], { host }));
      }),
      25,
    );
  });
});
