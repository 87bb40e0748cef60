// The formatter never changes what nginx reads, and its output is its own fixed point. On generated configurations
// full of what nginx and a grammar may read apart (form feeds and vertical tabs glued to `#`, lone CRs in comments
// and between tokens, CRLF and LF mixed, multi-line strings, Lua bodies), checked against the port of nginx's own
// tokenizer (model/nginx-tokens.ts): a formatted text has nginx's tokens of its input (a Lua body's code lines may
// start with other blanks, as the body moves with its directive, never a line inside a Lua string), the formatter's
// own guard never has to refuse (that would be a formatter bug caught at run time), and formatting the output
// changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableNginxTokens, DEFAULT_FORMAT_OPTIONS, formatDocument } from '../../server/src/features/format.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { checkProperty } from './support.js';

const NAMES = ['listen', 'server_name', 'add_header', 'sub_filter', 'log_format', 'set', 'return', 'x-y', 'map', '\f#n'];
const ARGS = ['80', 'a#b', '"a b"', "'c'", '$host', '${x}y', 'a\\;b', '\f#x', '\v#y', 'a\fb', '"\f#s"', '""',
  "'multi\n   line'", '"crlf\r\n  line"', '"lf\n\tline"', "'\n\f#q '", '"cr\rin"', 'a"b"', "'x'y"];
const SPACE = [' ', '  ', '\t', '\n', '\r\n', '\n\n\n', '\r', ' \r ', '\f', '\v', ' # c\n', ' # c\rlisten 81;\n', ' #\r\n',
  '\n    ', '\r\n\t', ' \f#g\n'];
const LUA = ['ngx.say("}")', '-- }\n', '--[[ } ]]', 'local t = { [[ } ]] }', 'ngx.say(1)\r\n  ngx.exit(200)', '\n\f x\n',
  'local s = [==[\n  kept\n]==]', '--[[\n    kept ]]', "local q = 'a\\\n   kept'", '\n\tngx.say(2)', '\n        ngx.say(3)'];

const space = fc.constantFrom(...SPACE);
const args = fc.array(fc.tuple(space, fc.constantFrom(...ARGS)).map(([s, a]) => s + a), { maxLength: 3 }).map((a) => a.join(''));
const simple = fc.tuple(fc.constantFrom(...NAMES), args, fc.constantFrom('', ' ', '\t', '\r')).map(([n, a, s]) => `${n}${a}${s};`);
const lua = fc
  .tuple(fc.array(fc.tuple(space, fc.constantFrom(...LUA)), { maxLength: 3 }), space)
  .map(([body, s]) => `content_by_lua_block {${body.map(([w, b]) => w + b).join('')}${s}}`);
const { statement } = fc.letrec((tie) => ({
  statement: fc.oneof({ depthSize: 'small' }, simple, simple, lua, fc.constantFrom('# a comment\n', '#\r\n', '# x\ry;\n'), tie('block')),
  block: fc
    .tuple(fc.constantFrom(...NAMES), args, space, fc.array(fc.tuple(space, tie('statement')), { maxLength: 4 }), space)
    .map(([n, a, s, body, t]) => `${n}${a}${s}{${body.map(([w, b]) => w + String(b)).join('')}${t}}`),
}));
const config = fc.array(fc.tuple(space, statement), { maxLength: 6 }).map((parts) => parts.map(([s, p]) => s + String(p)).join(''));

describe('format keeps what nginx reads', () => {
  it('formats generated configurations without changing nginx’s tokens, idempotently', async () => {
    const parser = await loadNginxParser();
    let changed = 0;
    await checkProperty(
      'format: nginx tokens kept, idempotent',
      fc.asyncProperty(config, async (text) => {
        const result = formatDocument(parser, 'site.conf', text, DEFAULT_FORMAT_OPTIONS);
        if (result.kind === 'refused') {
          // A syntax error is a fair refusal; the guard's "internal error" is a formatter bug.
          expect(result.reason).toMatch(/^syntax error: /);
          return;
        }
        // Byte for byte, but for the blanks that start a Lua body's code lines: the body moves with its directive.
        expect(comparableNginxTokens(result.text)).toEqual(comparableNginxTokens(text));
        if (result.text !== text) changed++;
        const again = formatDocument(parser, 'site.conf', result.text, DEFAULT_FORMAT_OPTIONS);
        expect(again.kind === 'formatted' && again.edits).toEqual([]);
      }),
      400,
    );
    // The generator must reach the formatter, not only its refusals.
    expect(changed).toBeGreaterThan(50);
  });
});
