// nginx's own tokenizer, ngx_conf_read_token (src/core/ngx_conf_file.c), ported: the tokens nginx reads from a
// configuration, independently of the grammar. The formatter's self-check compares this stream before and after
// formatting (features/format.ts), so a change of what nginx reads is caught even where the grammar and nginx part
// (a token the grammar splits, a comment it ends early).
//
// As in nginx: white space is space, tab, CR and LF only; `#` starts a comment only at the start of a token, and only
// LF ends it; `"` and `'` open a string only at the start of a token, and after its closing quote white space, `;`,
// `{` or `)` must follow; `\` escapes the next character; `${` continues a word; a word ends at white space, `;` or
// `{`; `}` closes a block only at the start of a token. The body of a `*_by_lua_block` is read by the Lua module's
// own tokenizer, not this one: it is one token here, up to the `}` that balances its `{` (Lua strings, comments and
// long brackets skipped as Lua reads them).
//
// Where nginx stops with an error, an `error …` token records it and reading goes on after the offending character
// with no arguments pending, so two texts are still compared beyond their first error (a template, which nginx would
// not read at all, is compared token by token as well).

/** One token per entry: `word <raw text, quotes included>`, `;`, `{`, `}`, `lua <body>` or `error <what>`. */
export type NginxToken = string;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === LF;
}

const LUA_BLOCK_SUFFIX = '_by_lua_block';

/** Where a `#` comment starts (its `#`) and ends (its LF, or the end of the text), as offsets. */
export interface NginxComment {
  start: number;
  end: number;
}

/** The `#` comments nginx skips in `text`, in order. */
export function nginxComments(text: string): NginxComment[] {
  const comments: NginxComment[] = [];
  nginxTokens(text, (start, end) => comments.push({ start, end }));
  return comments;
}

/**
 * Told where each token lies, for a reader that needs nginx's lines (nginx-first-error.ts): offsets of a word's text
 * (its quotes included), of a `;`, `{` or `}`, of a Lua body, and for an error the character nginx stopped at (the
 * text's length at the end of the file).
 */
export type NginxTokenSink = (token: NginxToken, start: number, end: number) => void;

/** The tokens nginx reads from `text`, in order; `onComment` is told of each comment. Linear in the text's length. */
export function nginxTokens(
  text: string,
  onComment?: (start: number, end: number) => void,
  onToken?: NginxTokenSink,
): NginxToken[] {
  const tokens: NginxToken[] = [];
  const emit = (token: NginxToken, from: number, to: number) => {
    tokens.push(token);
    onToken?.(token, from, to);
  };
  const length = text.length;
  let argCount = 0;
  let firstArg = '';
  let needSpace = false;
  let lastSpace = true;
  let sharpComment = false;
  let variable = false;
  let quoted = false;
  let sQuoted = false;
  let dQuoted = false;
  let start = 0;

  const reset = () => {
    argCount = 0;
    needSpace = false;
    lastSpace = true;
    variable = quoted = sQuoted = dQuoted = false;
  };
  const fail = (what: string) => {
    emit(`error ${what}`, i - 1, i);
    reset();
  };
  const end = (token: ';' | '{' | '}') => {
    emit(token, i - 1, i);
    const luaBlock = token === '{' && argCount > 0 && firstArg.endsWith(LUA_BLOCK_SUFFIX);
    reset();
    return luaBlock;
  };
  const word = (wordEnd: number, quoteAround: boolean) => {
    const from = quoteAround ? start - 1 : start;
    const to = quoteAround ? wordEnd + 1 : wordEnd;
    const raw = text.slice(from, to);
    emit(`word ${raw}`, from, to);
    if (argCount === 0) firstArg = raw;
    argCount++;
  };

  let commentStart = 0;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i++);
    const ch = text[i - 1]!;
    if (c === LF && sharpComment) {
      sharpComment = false;
      onComment?.(commentStart, i - 1);
    }
    if (sharpComment) continue;
    if (quoted) {
      quoted = false;
      continue;
    }
    if (needSpace) {
      if (isSpace(c)) {
        lastSpace = true;
        needSpace = false;
        continue;
      }
      if (ch === ';') {
        end(';');
        continue;
      }
      if (ch === '{') {
        if (end('{')) i = luaBody(text, i, emit);
        continue;
      }
      if (ch === ')') {
        lastSpace = true;
        needSpace = false;
      } else {
        fail(`unexpected "${ch}"`);
        continue;
      }
    }
    if (lastSpace) {
      start = i - 1;
      if (isSpace(c)) continue;
      switch (ch) {
        case ';':
        case '{':
          if (argCount === 0) fail(`unexpected "${ch}"`);
          else if (end(ch) && ch === '{') i = luaBody(text, i, emit);
          continue;
        case '}':
          if (argCount !== 0) fail('unexpected "}"');
          else end('}');
          continue;
        case '#':
          sharpComment = true;
          commentStart = i - 1;
          continue;
        case '\\':
          quoted = true;
          lastSpace = false;
          continue;
        case '"':
          start++;
          dQuoted = true;
          lastSpace = false;
          continue;
        case "'":
          start++;
          sQuoted = true;
          lastSpace = false;
          continue;
        case '$':
          variable = true;
          lastSpace = false;
          continue;
        default:
          lastSpace = false;
      }
    } else {
      if (ch === '{' && variable) continue;
      variable = false;
      if (ch === '\\') {
        quoted = true;
        continue;
      }
      if (ch === '$') {
        variable = true;
        continue;
      }
      if (dQuoted || sQuoted) {
        if (ch === (dQuoted ? '"' : "'")) {
          dQuoted = sQuoted = false;
          needSpace = true;
          word(i - 1, true);
        }
      } else if (isSpace(c) || ch === ';' || ch === '{') {
        lastSpace = true;
        word(i - 1, false);
        if (ch === ';') end(';');
        else if (ch === '{' && end('{')) i = luaBody(text, i, emit);
      }
    }
  }
  if (sharpComment) onComment?.(commentStart, length);
  if (argCount > 0 || !lastSpace) emit('error unexpected end of file', length, length);
  return tokens;
}

/**
 * A Lua block's body from `from` (just past its `{`): pushes `lua <body>` (trailing white space left out: the
 * formatter places the `}` anew) and `}`, and returns where nginx's tokenizer goes on.
 */
function luaBody(text: string, from: number, emit: (token: NginxToken, from: number, to: number) => void): number {
  const length = text.length;
  let depth = 0;
  let i = from;
  while (i < length) {
    const ch = text[i]!;
    if (ch === '}' && depth === 0) break;
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === '"' || ch === "'") {
      i = luaQuotedEnd(text, i);
      continue;
    } else if (ch === '[') {
      const bracketEnd = luaLongBracketEnd(text, i);
      i = bracketEnd === -1 ? i + 1 : bracketEnd;
      continue;
    } else if (ch === '-' && text[i + 1] === '-') {
      // `--[[ … ]]` is a long comment; any other `--` comment runs to the end of its line, as in Lua.
      const bracketEnd = luaLongBracketEnd(text, i + 2);
      i = bracketEnd === -1 ? lineEnd(text, i + 2) : bracketEnd;
      continue;
    }
    i++;
  }
  let bodyEnd = i;
  while (bodyEnd > from && isSpace(text.charCodeAt(bodyEnd - 1))) bodyEnd--;
  emit(`lua ${text.slice(from, bodyEnd)}`, from, bodyEnd);
  if (i >= length) {
    emit('error unexpected end of file', length, length);
    return length;
  }
  emit('}', i, i + 1);
  return i + 1;
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}

/** Past a Lua string starting at `start` (it ends at its quote or, unterminated, at the line's end). */
export function luaQuotedEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return text[i] === quote ? i + 1 : Math.min(i, text.length);
}

/** Past a Lua long bracket (`[[ … ]]`, `[==[ … ]==]`) starting at `start`; -1 when none starts there. */
export function luaLongBracketEnd(text: string, start: number): number {
  if (text[start] !== '[') return -1;
  let i = start + 1;
  while (text[i] === '=') i++;
  if (text[i] !== '[') return -1;
  const close = `]${'='.repeat(i - start - 1)}]`;
  const end = text.indexOf(close, i + 1);
  return end === -1 ? text.length : end + close.length;
}
