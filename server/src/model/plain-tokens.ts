// Token boundaries of plain nginx text, as the grammar's external scanner (grammars/nginx/src/scanner.c) and lexer
// find them, for the text reader (text-reader.ts). Each function returns where a token ends, or throws Bail for text
// the reader leaves to the tree (a template action, a `${` that is no variable, an unterminated string).
// Character codes throughout: a model of a large file reads every character once, and comparing numbers is cheapest.

/** Thrown to give up on a text; carries no stack (a bail per templated string made stack traces the cost). */
export class Bail {
  readonly bail = true;
}

// The lexicon: every character class the reader tells tokens apart by, each defined once here and held to the
// grammar's own definitions (grammars/nginx/src/grammar.json and scanner.c) by test/model/reader-grammar.test.ts, so
// a grammar change that the reader does not follow fails that test. The functions below use only these.

function range(first: string, last: string): string {
  let out = '';
  for (let c = first.charCodeAt(0); c <= last.charCodeAt(0); c++) out += String.fromCharCode(c);
  return out;
}

/** The scanner's is_space and the grammar's extras, nginx's white space: what separates tokens. */
export const SPACE_CHARS = ' \t\n\r';
/** NUL, which the scanner may take for the end of the text: a text holding one is left to the tree. */
export const UNUSUAL_SPACE = /\0/;
/** A variable's name (`variable`), the rest of an identifier (`directive_name`): the scanner's is_variable_char. */
export const NAME_CHARS = range('a', 'z') + range('A', 'Z') + range('0', '9') + '_';
/** The first character of an identifier (`directive_name`): the scanner's is_identifier_start. */
export const IDENTIFIER_START_CHARS = range('a', 'z') + range('A', 'Z') + '_';
/** Besides white space (and a `$` that starts a variable), what ends a bare-word fragment (scan_word_fragment). */
export const WORD_END_CHARS = ';{';
/** Special only at the start of a token (a comment, a string, a block's end); inside a word they are text. */
export const TOKEN_START_CHARS = '#"\'}';
/** The two quotes, double first: each opens a string that only the same quote closes (`string`). */
export const QUOTE_CHARS = '"\'';
/** A comment (`comment`) runs from this to the end of its line. */
export const COMMENT_OPEN = '#';
/** What ends a comment (`comment`), as in nginx: LF alone; the CRs just before it (or the text's end) are left out. */
export const COMMENT_END_CHAR = '\n';
/** Escapes the next character in a word, a string or a condition (the scanner). */
export const ESCAPE_CHAR = '\\';
/** `$name` or `${name}` (`variable`); a `$` before anything else is text. */
export const VARIABLE_SIGIL = '$';
export const VARIABLE_BRACES = '{}';
/** Ends a directive without a block (`directive`). */
export const STATEMENT_END = ';';
/** A block's braces (`block`) and an `if` condition's parentheses (`condition`). */
export const BLOCK_BRACES = '{}';
export const CONDITION_PARENS = '()';
/** What opens a template action: Go's `{{`, Jinja's `{%` and `{#` (`_template_open`, `_jinja_open`, the scanner). */
export const TEMPLATE_OPENERS: readonly string[] = ['{{', '{%', '{#'];
/** An identifier ending so names a Lua block (`_lua_block_name`), whose body is not nginx syntax. */
export const LUA_BLOCK_SUFFIX = '_by_lua_block';

/**
 * Whether a directive's name names a Lua block, as the grammar's `_lua_block_name` token has it: a word before the
 * suffix. `_by_lua_block` alone is a plain name there, so the text reader read its body as Lua where a parse read it
 * as nginx, and a model updated through a parse differed from a fresh read (FUZZ_RUNS=20000, seed 1126435053 of
 * test/property/incremental-analysis.test.ts).
 */
export function namesLuaBlock(name: string): boolean {
  return name.length > LUA_BLOCK_SUFFIX.length && name.endsWith(LUA_BLOCK_SUFFIX);
}

// The same characters by code, for the readers' comparisons (linking-statements.ts in cli/ reads with them too).
export const SPACE = SPACE_CHARS.charCodeAt(0);
export const TAB = SPACE_CHARS.charCodeAt(1);
export const CR = SPACE_CHARS.charCodeAt(3);
export const LF = COMMENT_END_CHAR.charCodeAt(0);
/** The second character of Jinja's `{%`. */
export const PERCENT = TEMPLATE_OPENERS[1]!.charCodeAt(1);
export const DOUBLE_QUOTE = QUOTE_CHARS.charCodeAt(0);
export const SINGLE_QUOTE = QUOTE_CHARS.charCodeAt(1);
export const HASH = COMMENT_OPEN.charCodeAt(0);
export const DOLLAR = VARIABLE_SIGIL.charCodeAt(0);
export const BACKSLASH = ESCAPE_CHAR.charCodeAt(0);
export const SEMICOLON = STATEMENT_END.charCodeAt(0);
export const OPEN_BRACE = BLOCK_BRACES.charCodeAt(0);
export const CLOSE_BRACE = BLOCK_BRACES.charCodeAt(1);
export const OPEN_PAREN = CONDITION_PARENS.charCodeAt(0);
export const CLOSE_PAREN = CONDITION_PARENS.charCodeAt(1);
const VARIABLE_OPEN = VARIABLE_BRACES.charCodeAt(0);
const VARIABLE_CLOSE = VARIABLE_BRACES.charCodeAt(1);

// Every class above is ASCII, so one table of bits by character code answers them all; the hot loops below read it
// inline (`c < 128 && (CHAR_CLASS[c] & BIT) !== 0`, false for NaN past the end) rather than calling a predicate per
// character, which is most of what reading costs before the code is optimized.
export const CHAR_CLASS = new Uint8Array(128);
export const SPACE_BIT = 1;
const NAME_BIT = 2;
const IDENTIFIER_START_BIT = 4;
/** What a bare-word fragment stops at or must look at: white space, `;`, `{`, `$` and `\`. */
const FRAGMENT_STOP_BIT = 8;
const TOKEN_START_BIT = 16;
const QUOTE_BIT = 32;

function mark(chars: string, bit: number): void {
  for (let i = 0; i < chars.length; i++) CHAR_CLASS[chars.charCodeAt(i)]! |= bit;
}
mark(SPACE_CHARS, SPACE_BIT);
mark(NAME_CHARS, NAME_BIT);
mark(IDENTIFIER_START_CHARS, IDENTIFIER_START_BIT);
mark(SPACE_CHARS + WORD_END_CHARS + VARIABLE_SIGIL + ESCAPE_CHAR, FRAGMENT_STOP_BIT);
mark(TOKEN_START_CHARS, TOKEN_START_BIT);
mark(QUOTE_CHARS, QUOTE_BIT);

function inClass(c: number, bit: number): boolean {
  return c < 128 && (CHAR_CLASS[c]! & bit) !== 0;
}

/** The scanner's is_space. */
export const isSpaceCode = (c: number): boolean => inClass(c, SPACE_BIT);
const isVariableCode = (c: number): boolean => inClass(c, NAME_BIT);
const isIdentifierStartCode = (c: number): boolean => inClass(c, IDENTIFIER_START_BIT);
export const isQuoteCode = (c: number): boolean => inClass(c, QUOTE_BIT);
/** A character that cannot start a bare word (it starts another token there). */
export const isTokenStartCode = (c: number): boolean => inClass(c, TOKEN_START_BIT);

/** True when a template action opens at `i`. */
export function opensTemplateAction(text: string, i: number): boolean {
  for (const opener of TEMPLATE_OPENERS) if (text.startsWith(opener, i)) return true;
  return false;
}

/** A `$` at `i` that starts a variable (a name character or `{` follows); any other `$` is text. */
export function startsVariable(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== DOLLAR) return false;
  const next = text.charCodeAt(i + 1);
  return (next < 128 && (CHAR_CLASS[next]! & NAME_BIT) !== 0) || next === VARIABLE_OPEN;
}

/** True when [start, end) is an identifier (a letter or `_`, then letters, digits and `_`): a directive_name. */
export function isIdentifier(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (end <= start || !isIdentifierStartCode(first)) return false;
  for (let i = start + 1; i < end; i++) if (!isVariableCode(text.charCodeAt(i))) return false;
  return true;
}

/** The end of a bare-word fragment from `from` (scan_word_fragment): before space, `;`, `{` or a variable. */
export function fragmentEnd(text: string, from: number): number {
  const length = text.length;
  let i = from;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c]! & FRAGMENT_STOP_BIT) !== 0) {
      if (c === BACKSLASH) {
        i += i + 1 < length ? 2 : 1;
        continue;
      }
      if (c !== DOLLAR || startsVariable(text, i)) return i;
    }
    i++;
  }
  return i;
}

/**
 * The end of the directive_name starting at `start`, or `start` when none does: the identifier there must be a
 * whole bare-word fragment (what follows it ends one), else it is the start of a word. fragmentEnd and isIdentifier
 * in one pass over the name.
 */
export function directiveNameEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (!(first < 128 && (CHAR_CLASS[first]! & IDENTIFIER_START_BIT) !== 0)) return start;
  let i = start + 1;
  let c = text.charCodeAt(i);
  while (c < 128 && (CHAR_CLASS[c]! & NAME_BIT) !== 0) c = text.charCodeAt(++i);
  // Past the end (NaN), white space, `;`, `{` and a variable end the fragment; anything else continues the word.
  if (i >= text.length) return i;
  if (c < 128 && (CHAR_CLASS[c]! & FRAGMENT_STOP_BIT) !== 0 && c !== BACKSLASH && (c !== DOLLAR || startsVariable(text, i))) return i;
  return start;
}

/** The end of the variable starting at `start`: `$name` or `${name}`. */
export function variableEnd(text: string, start: number): number {
  const braced = text.charCodeAt(start + 1) === VARIABLE_OPEN;
  let end = braced ? start + 2 : start + 1;
  let c = text.charCodeAt(end);
  while (c < 128 && (CHAR_CLASS[c]! & NAME_BIT) !== 0) c = text.charCodeAt(++end);
  if (!braced) return end;
  if (end === start + 2 || c !== VARIABLE_CLOSE) throw new Bail();
  return end + 1;
}

/** The variable's name without `$` and braces. */
export function variableNameAt(text: string, start: number, end: number): string {
  return text.charCodeAt(start + 1) === VARIABLE_OPEN ? text.slice(start + 2, end - 1) : text.slice(start + 1, end);
}

/** The end of the quoted string starting at `start` (past its closing quote); `onVariable` gets each variable. */
export function stringEnd(text: string, start: number, onVariable?: (start: number, end: number) => void): number {
  const quote = text.charCodeAt(start);
  const length = text.length;
  let i = start + 1;
  for (;;) {
    if (i >= length) throw new Bail();
    const c = text.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === DOLLAR && startsVariable(text, i)) {
      const end = variableEnd(text, i);
      onVariable?.(i, end);
      i = end;
    } else if (c === OPEN_BRACE && text.charCodeAt(i + 1) === OPEN_BRACE) {
      // A Go action in a string. (The text reader never gets here: it declines any text with a template opener.)
      throw new Bail();
    } else {
      i += c === BACKSLASH && i + 1 < length ? 2 : 1;
    }
  }
}

/** What a caller that paints a condition (features/plain-semantic-tokens.ts) does with its strings and variables. */
export interface ConditionPieces {
  /** Reads the quoted string starting at `start` as stringEnd does, and returns its end. */
  string(start: number): number;
  /** A variable outside strings. */
  variable(start: number, end: number): void;
}

/**
 * The end of an `if` condition starting at its `(`: past the `)` that white space and the block's `{` follow
 * (scan_condition_text). A quote opens a string only at the start of a run of text or after white space.
 */
export function conditionEnd(text: string, start: number, pieces?: ConditionPieces): number {
  let i = start + 1;
  let afterSpace = true;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === SEMICOLON || c === OPEN_BRACE) throw new Bail();
    if (isSpaceCode(c)) {
      i++;
      afterSpace = true;
    } else if (isQuoteCode(c) && afterSpace) {
      i = pieces ? pieces.string(i) : stringEnd(text, i);
    } else if (startsVariable(text, i)) {
      const end = variableEnd(text, i);
      pieces?.variable(i, end);
      i = end;
      afterSpace = true;
    } else if (c === CLOSE_PAREN) {
      let j = i + 1;
      while (isSpaceCode(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === OPEN_BRACE && text.charCodeAt(j + 1) !== OPEN_BRACE) return i + 1;
      afterSpace = j > i + 1;
      i = j;
    } else {
      i += c === BACKSLASH && i + 1 < text.length ? 2 : 1;
      afterSpace = false;
    }
  }
}

/** The end of the comment starting at `start` (its `#`): before its LF, and before the CRs just before that. */
export function commentEnd(text: string, start: number): number {
  const lineEnd = text.indexOf(COMMENT_END_CHAR, start + 1);
  let end = lineEnd === -1 ? text.length : lineEnd;
  while (end > start + 1 && text.charCodeAt(end - 1) === CR) end--;
  return end;
}

/** Past the white space and `#` comments from `from`. */
export function skipSpaceAndComments(text: string, from: number): number {
  const length = text.length;
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c]! & SPACE_BIT) !== 0) {
      i++;
    } else if (c === HASH) {
      // Past the comment and the CRs before its LF: they are white space anyway.
      const lineEnd = text.indexOf(COMMENT_END_CHAR, i + 1);
      i = lineEnd === -1 ? length : lineEnd;
    } else {
      return i;
    }
  }
}
