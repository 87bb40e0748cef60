// The port of nginx's ngx_conf_read_token (model/nginx-tokens.ts), case by case from the C source: what is white
// space, where a comment, a string and a word start and end, and what nginx stops at.
import { describe, expect, it } from 'vitest';
import { nginxComments, nginxTokens } from '../../server/src/model/nginx-tokens.js';

const words = (...raw: string[]) => raw.map((word) => `word ${word}`);

describe('nginxTokens', () => {
  it('reads words, strings and the three statement ends', () => {
    expect(nginxTokens('http {\n  listen 80;\n}\n')).toEqual([...words('http'), '{', ...words('listen', '80'), ';', '}']);
    expect(nginxTokens(`add_header X "a b" 'c;d';`)).toEqual([...words('add_header', 'X', '"a b"', "'c;d'"), ';']);
    // A quote inside a word, `}` and `#` inside a word, an escaped `;`: all part of the word.
    expect(nginxTokens('a"b" c}d e#f g\\;h;')).toEqual([...words('a"b"', 'c}d', 'e#f', 'g\\;h'), ';']);
    // `${` continues a word; a `{` after anything else opens a block.
    expect(nginxTokens('set $a ${b}c; x$y{')).toEqual([...words('set', '$a', '${b}c'), ';', ...words('x$y'), '{']);
  });

  it('has only space, tab, CR and LF for white space: a form feed or vertical tab is text, even before #', () => {
    expect(nginxTokens('a\fb \v#c d;')).toEqual([...words('a\fb', '\v#c', 'd'), ';']);
  });

  it('starts a comment only at the start of a token, and ends it at LF only (a lone CR is comment text)', () => {
    expect(nginxTokens('a; # b;\rc;\nd;')).toEqual([...words('a'), ';', ...words('d'), ';']);
    expect(nginxTokens('a # b\r\n c;')).toEqual([...words('a', 'c'), ';']);
    // Each comment from its `#` to its LF (or the end); a `#` inside a word or a string is none.
    expect(nginxComments('a; # b\rc;\nd#e "#f" #g')).toEqual([
      { start: 3, end: 9 },
      { start: 19, end: 21 },
    ]);
  });

  it('wants white space, ;, { or ) after a closing quote, and records where nginx stops', () => {
    expect(nginxTokens('if ($a = "b") {')).toEqual([...words('if', '($a', '=', '"b"', ')'), '{']);
    // After an error nothing is pending: the `;` that follows ends no statement.
    expect(nginxTokens('a "b"c;')).toEqual([...words('a', '"b"'), 'error unexpected "c"', 'error unexpected ";"']);
    expect(nginxTokens('{')).toEqual(['error unexpected "{"']);
    expect(nginxTokens('a }')).toEqual([...words('a'), 'error unexpected "}"']);
    expect(nginxTokens('a b')).toEqual([...words('a'), 'error unexpected end of file']);
    expect(nginxTokens('a "b')).toEqual([...words('a'), 'error unexpected end of file']);
  });

  it('reads a *_by_lua_block body as one token, to the brace that balances it outside Lua strings and comments', () => {
    const lua = 'content_by_lua_block {\n  local t = { "}" } -- }\n  --[[ } ]] ngx.say([==[ } ]==])\n}\nx;';
    expect(nginxTokens(lua)).toEqual([
      ...words('content_by_lua_block'),
      '{',
      'lua \n  local t = { "}" } -- }\n  --[[ } ]] ngx.say([==[ } ]==])',
      '}',
      ...words('x'),
      ';',
    ]);
    // `--[` without a long bracket is a line comment in Lua.
    expect(nginxTokens('a_by_lua_block { --[ }\n}')).toEqual([...words('a_by_lua_block'), '{', 'lua  --[ }', '}']);
  });
});
