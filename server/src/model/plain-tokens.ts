// Token boundaries of plain nginx text, as the grammar's external scanner (grammars/nginx/src/scanner.c) and lexer
// find them, for the text reader (text-reader.ts). Each function returns where a token ends, or throws Bail for text
// the reader leaves to the tree (a template action, a `${` that is no variable, an unterminated string).
// Character codes throughout: a model of a large file reads every character once, and comparing numbers is cheapest.

export class Bail extends Error {}

export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const DOUBLE_QUOTE = 34;
export const HASH = 35;
export const DOLLAR = 36;
export const PERCENT = 37;
export const SINGLE_QUOTE = 39;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const SEMICOLON = 59;
export const BACKSLASH = 92;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;

/** The scanner's is_space: space, \t, \n, \v, \f, \r. NaN (past the end) is none. */
export function isSpaceCode(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

function isVariableCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

export function isQuoteCode(c: number): boolean {
  return c === DOUBLE_QUOTE || c === SINGLE_QUOTE;
}

/** A `$` at `i` that starts a variable (a name character or `{` follows); any other `$` is text. */
export function startsVariable(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== DOLLAR) return false;
  const next = text.charCodeAt(i + 1);
  return isVariableCode(next) || next === OPEN_BRACE;
}

/** True when [start, end) is an identifier (a letter or `_`, then letters, digits and `_`): a directive_name. */
export function isIdentifier(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (end <= start || !((first >= 97 && first <= 122) || (first >= 65 && first <= 90) || first === 95)) return false;
  for (let i = start + 1; i < end; i++) if (!isVariableCode(text.charCodeAt(i))) return false;
  return true;
}

/** The end of a bare-word fragment from `from` (scan_word_fragment): before space, `;`, `{` or a variable. */
export function fragmentEnd(text: string, from: number): number {
  const length = text.length;
  let i = from;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (isSpaceCode(c) || c === SEMICOLON || c === OPEN_BRACE) return i;
    if (c === DOLLAR && startsVariable(text, i)) return i;
    i += c === BACKSLASH && i + 1 < length ? 2 : 1;
  }
  return i;
}

/** The end of the variable starting at `start`: `$name` or `${name}`. */
export function variableEnd(text: string, start: number): number {
  let end = start + 1;
  if (text.charCodeAt(end) === OPEN_BRACE) {
    end++;
    while (isVariableCode(text.charCodeAt(end))) end++;
    if (end === start + 2 || text.charCodeAt(end) !== CLOSE_BRACE) throw new Bail();
    return end + 1;
  }
  while (isVariableCode(text.charCodeAt(end))) end++;
  return end;
}

/** The variable's name without `$` and braces. */
export function variableNameAt(text: string, start: number, end: number): string {
  return text.charCodeAt(start + 1) === OPEN_BRACE ? text.slice(start + 2, end - 1) : text.slice(start + 1, end);
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
      throw new Bail();
    } else {
      i += c === BACKSLASH && i + 1 < length ? 2 : 1;
    }
  }
}

/**
 * The end of an `if` condition starting at its `(`: past the `)` that white space and the block's `{` follow
 * (scan_condition_text). A quote opens a string only at the start of a run of text or after white space.
 */
export function conditionEnd(text: string, start: number): number {
  let i = start + 1;
  let afterSpace = true;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === SEMICOLON || c === OPEN_BRACE) throw new Bail();
    if (isSpaceCode(c)) {
      i++;
      afterSpace = true;
    } else if (isQuoteCode(c) && afterSpace) {
      i = stringEnd(text, i);
    } else if (startsVariable(text, i)) {
      i = variableEnd(text, i);
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

/** Past the white space and `#` comments from `from`. */
export function skipSpaceAndComments(text: string, from: number): number {
  const length = text.length;
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (isSpaceCode(c)) {
      i++;
    } else if (c === HASH) {
      i++;
      while (i < length) {
        const d = text.charCodeAt(i);
        if (d === LF || d === CR) break;
        i++;
      }
    } else {
      return i;
    }
  }
}
