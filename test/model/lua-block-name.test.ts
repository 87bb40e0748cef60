// `_by_lua_block` alone names no Lua block: the grammar's `_lua_block_name` wants a word before the suffix, and the
// text reader now agrees (plain-tokens.ts namesLuaBlock). It read the body as Lua, so a document whose model was
// last built from a parse differed from a fresh read of the same text (FUZZ_RUNS=20000, seed 1126435053 of
// test/property/incremental-analysis.test.ts, on a 3scale APIcast init.conf from the corpus).
import { beforeAll, describe, expect, it } from 'vitest';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import { buildPlainConfigFile } from '../../server/src/model/build.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { plainModel } from '../property/support.js';

const FILE = '/lua-block-name/init.conf';
const BODY = ' {\n    -- require("jit.v").start("dump.txt")\n    local log = require(\'resty.log.log\')\n}\n';

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

describe('a directive named _by_lua_block', () => {
  it('is read as the grammar reads it, not as a Lua block', () => {
    expect(buildPlainConfigFile(FILE, `init_by_lua_block${BODY}`)?.directives[0]?.children).toEqual([]);
    expect(buildPlainConfigFile(FILE, `_by_lua_block${BODY}`)).toBeUndefined();
    expect(parseFile(parser, FILE, `_by_lua_block${BODY}`).syntaxProblems.length).toBeGreaterThan(0);
  });

  it('gives a document edited into it the model a fresh read gives', () => {
    const document = new OpenDocument(`file://${FILE}`, FILE, 1, `init_by_lua_block${BODY}`, () => 10_000_000);
    try {
      // `.x` makes the name no identifier: the model is read from a parse, and the document keeps its tree.
      document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '.x' }], 2);
      expect(document.currentModel(parser).syntaxProblems.length).toBeGreaterThan(0);
      // Deleting `.xinit` leaves `_by_lua_block`.
      document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 6 } }, text: '' }], 3);
      expect(document.text.startsWith('_by_lua_block {')).toBe(true);
      expect(plainModel(document.currentModel(parser))).toEqual(plainModel(parseFile(parser, FILE, document.text)));
    } finally {
      document.dispose();
    }
  });
});
