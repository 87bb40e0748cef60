// The extent of a `*_by_lua_block` body, for the text reader (text-reader.ts): where the grammar's external scanner
// (scan_lua_code in grammars/nginx/src/scanner.c) ends the Lua code, which test/model/reader-grammar.test.ts and
// test/property/text-reader.test.ts hold it to. (nginx's own Lua tokenizer is nginx-tokens.ts's: the two part on
// some malformed bodies, so the reader leaves nginx's first error in a file with Lua to that port.)
import { BACKSLASH, Bail, CLOSE_BRACE, COMMENT_END_CHAR, DOUBLE_QUOTE, LF, OPEN_BRACE, SINGLE_QUOTE, TEMPLATE_OPENERS } from './plain-tokens.js';

/** In a Lua block's body: a Lua comment opens with two of these, a long bracket with `[`, `=`s, `[`. */
export const LUA_COMMENT_CHAR = '-';
export const LUA_BRACKETS = '[]';
export const LUA_BRACKET_LEVEL = '=';

const MINUS = LUA_COMMENT_CHAR.charCodeAt(0);
const OPEN_BRACKET = LUA_BRACKETS.charCodeAt(0);
const CLOSE_BRACKET = LUA_BRACKETS.charCodeAt(1);
const EQUALS = LUA_BRACKET_LEVEL.charCodeAt(0);

/**
 * The body of a `*_by_lua_block` from `from` (just past its `{`): the offset of the `}` that balances that `{`, as the
 * scanner's scan_lua_code finds it (braces in Lua strings, comments and long brackets do not count). Bail when the
 * text ends first: the block is left open.
 */
export function luaBodyEnd(text: string, from: number): number {
  const length = text.length;
  let depth = 0;
  let i = from;
  for (;;) {
    if (i >= length) throw new Bail();
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) {
      if (depth === 0) return i;
      depth--;
      i++;
    } else if (c === OPEN_BRACE) {
      depth++;
      i++;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      i = luaQuotedEnd(text, i);
    } else if (c === OPEN_BRACKET) {
      i = luaBracketEnd(text, i);
    } else if (c === MINUS && text.charCodeAt(i + 1) === MINUS) {
      // A long comment `--[[ … ]]`; else to the end of the line (a `--[` that opens no long bracket: only the `[`s).
      i = text.charCodeAt(i + 2) === OPEN_BRACKET ? luaBracketEnd(text, i + 2) : lineEndFrom(text, i + 2);
    } else {
      i++;
    }
  }
}

/** Past a Lua string at `start` (scan_lua_quoted): its closing quote, or where a line break or the text ends it. */
export function luaQuotedEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  const length = text.length;
  let i = start + 1;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === quote || c === LF) break;
    if (c === BACKSLASH) i++;
    if (i < length) i++;
  }
  return i < length && text.charCodeAt(i) === quote ? i + 1 : i;
}

/**
 * Past what scan_lua_bracket takes at the `[` at `start`: a long bracket `[==[ … ]==]` with its body (to the text's
 * end when unclosed), or else the `[` and the `=`s after it.
 */
export function luaBracketEnd(text: string, start: number): number {
  const length = text.length;
  let i = start + 1;
  let level = 0;
  while (text.charCodeAt(i) === EQUALS) {
    level++;
    i++;
  }
  if (text.charCodeAt(i) !== OPEN_BRACKET) return i;
  i++;
  for (;;) {
    if (i >= length) return length;
    const c = text.charCodeAt(i++);
    if (c !== CLOSE_BRACKET) continue;
    let closing = 0;
    while (text.charCodeAt(i) === EQUALS) {
      closing++;
      i++;
    }
    if (closing === level && text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
  }
}

export function lineEndFrom(text: string, from: number): number {
  const newline = text.indexOf(COMMENT_END_CHAR, from);
  return newline === -1 ? text.length : newline;
}

/** True when every template opener of `text` lies wholly inside one of `bodies` (starts and ends, in text order). */
export function openersOnlyIn(text: string, bodies: readonly number[]): boolean {
  for (const opener of TEMPLATE_OPENERS) {
    let body = 0;
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      while (body < bodies.length && bodies[body + 1]! < at + opener.length) body += 2;
      if (body >= bodies.length || bodies[body]! > at) return false;
    }
  }
  return true;
}
