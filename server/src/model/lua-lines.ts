// The lines of a `*_by_lua_block` body that start in Lua code, not inside a Lua string, long string or long comment:
// the blanks at their start are white space between Lua tokens, which the formatter may change (it moves a body with
// its directive), while a line inside a string is what the Lua code reads, byte for byte. Scanned as the port of
// nginx's tokenizer scans a body (nginx-tokens.ts: the same strings, escapes and long brackets).
import { luaLongBracketEnd, luaQuotedEnd } from './nginx-tokens.js';

/** Offsets in `body` just past each line break that lies in Lua code. */
export function luaCodeLineStarts(body: string): number[] {
  const starts: number[] = [];
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (ch === '"' || ch === "'") {
      i = luaQuotedEnd(body, i);
      continue;
    }
    if (ch === '[') {
      const bracketEnd = luaLongBracketEnd(body, i);
      i = bracketEnd === -1 ? i + 1 : bracketEnd;
      continue;
    }
    if (ch === '-' && body[i + 1] === '-') {
      const bracketEnd = luaLongBracketEnd(body, i + 2);
      if (bracketEnd !== -1) {
        i = bracketEnd;
        continue;
      }
      const newline = body.indexOf('\n', i + 2);
      i = newline === -1 ? body.length : newline;
      continue;
    }
    if (ch === '\n') starts.push(i + 1);
    i++;
  }
  return starts;
}

/** `body` without the blanks that start its Lua code lines: what re-indenting a body must leave unchanged. */
export function withoutLuaIndentation(body: string): string {
  const parts: string[] = [];
  let position = 0;
  for (const start of luaCodeLineStarts(body)) {
    let end = start;
    while (body[end] === ' ' || body[end] === '\t') end++;
    parts.push(body.slice(position, start));
    position = end;
  }
  parts.push(body.slice(position));
  return parts.join('');
}
