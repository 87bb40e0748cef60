// The language server's incremental analysis: after any sequence of edits, a document's model (re-reading only the
// edited block, server/src/model/incremental-model.ts) and the findings analyze() computes from it equal those of a
// fresh read of the same text: rule, message, file, offsets, lines and columns. Edits go mostly inside blocks (where
// the incremental path applies), through the server's own OpenDocument, with several edits sometimes piling up
// before the next analysis, as when a client sends changes faster than they are analyzed.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import type { ConfigFile, Directive, ModelCache } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { checkProperty, FUZZING, memoryHost, seedFiles, VIRTUAL_DIR } from './support.js';

const seeds = seedFiles();
let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

const FRAGMENTS = ['x', ' ', ';', '{', '}', '"', "'", '#', '$', '\n', '\r\n', 'é', '😀', 'keepalive 16;', 'proxy_http_version 1.1;',
  'proxy_set_header Connection "";', 'proxy_set_header Upgrade $http_upgrade;', 'proxy_pass http://app;', 'fastcgi_keep_conn on;',
  'upstream app { server 127.0.0.1:3000; }', 'location / {', 'location /a/ { proxy_pass http://app; }', 'server_name a.example;',
  'include x.conf;', '# nginx-keepalive-disable-next-line', 'ip_hash;', 'map $http_upgrade $connection_upgrade { default upgrade; }'];

interface Edit {
  /** Where, as a fraction: of a random block's body when `inBlock`, else of the whole text. */
  where: number;
  inBlock: boolean;
  block: number;
  deleted: number;
  inserted: string;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  where: fc.double({ min: 0, max: 1, noNaN: true }),
  inBlock: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
  block: fc.nat(),
  deleted: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 12 })),
  inserted: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.constant('')),
});

function blockBodies(directives: readonly Directive[], out: Array<[number, number]> = []): Array<[number, number]> {
  for (const directive of directives) {
    if (directive.blockSpan) out.push([directive.blockSpan.startOffset + 1, directive.blockSpan.endOffset - 1]);
    blockBodies(directive.children, out);
  }
  return out;
}

/** The offsets an edit replaces in `text`, given the model of that text. */
function placeEdit(text: string, model: ConfigFile, { where, inBlock, block, deleted }: Edit): [number, number] {
  const bodies = blockBodies(model.directives);
  const [low, high] = inBlock && bodies.length > 0 ? bodies[block % bodies.length]! : [0, text.length];
  const start = low + Math.floor(where * (high - low));
  return [start, Math.min(inBlock ? high : text.length, start + deleted)];
}

/** The model as plain data: parent and file links dropped, so two builds compare with toEqual. */
function plainModel(file: ConfigFile) {
  const directive = (d: Directive): unknown => {
    const { parent: _parent, file: _file, children, ...rest } = d;
    return { ...rest, children: children.map(directive) };
  };
  const { directives, ...rest } = file;
  return { ...rest, directives: directives.map(directive) };
}

let incrementalBuilds = 0;
let allBuilds = 0;

describe('incremental analysis in the language server', () => {
  it('gives the model and the findings of a fresh read after any sequence of edits', async () => {
    await checkProperty(
      'incremental analysis equals fresh analysis',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), fc.array(fc.tuple(edit, fc.boolean()), { minLength: 1, maxLength: 6 }), async (seed, edits) => {
        const file = path.join(VIRTUAL_DIR, path.basename(seeds[seed]!.name));
        const document = new OpenDocument(`file://${file}`, file, 1, seeds[seed]!.text, () => 10_000_000);
        try {
          let model = document.currentModel(parser);
          let version = 1;
          for (const [change, analyzeNow] of edits) {
            const [start, end] = placeEdit(document.text, model, change);
            const at = document.textDocument.positionAt(start);
            const to = document.textDocument.positionAt(end);
            document.applyChanges([{ range: { start: at, end: to }, text: change.inserted }], ++version);
            // Sometimes several edits pile up before the next analysis.
            if (!analyzeNow) continue;
            model = document.currentModel(parser);
            const text = document.text;
            expect(plainModel(model)).toEqual(plainModel(parseFile(parser, file, text)));
            const doc = { path: file, text };
            const host = memoryHost([doc]);
            const models: ModelCache = { get: (asked, askedText) => (asked === file && askedText === text ? model : undefined) };
            expect(await analyze([doc], { host, models })).toEqual(await analyze([doc], { host }));
          }
          incrementalBuilds += document.modelBuilds.incremental;
          // Not the first read of the seed: only builds after an edit could have been incremental.
          allBuilds += document.modelBuilds.incremental + document.modelBuilds.full - 1;
        } finally {
          document.dispose();
        }
      }),
      FUZZING ? 0 : 60,
    );
    // The property is only worth something if the incremental path is taken often.
    expect(incrementalBuilds).toBeGreaterThan(allBuilds / 5);
  });
});
