// The line reading under the content sniff (nginx-content.ts). A line is read in place, as a range [from, to) of the
// text, with no string made of it: the sniff runs on every candidate file of a directory walk (3,000 files of the
// benchmark corpus), and copying each line character by character was most of its time. Only a line holding template
// syntax (`{{ … }}`, `{% … %}`, `{# … #}`) or a NUL is copied and rewritten (templateLine), as the sniff always read it.
//
// Every function is linear in its range and reads nothing outside it.

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const NUL = 0;
const HASH = 0x23;
const BACKSLASH = 0x5c;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const SEMICOLON = 0x3b;
const PERCENT = 0x25;

export const isBlankCode = (code: number) => code === SPACE || code === TAB || code === CR;
export const isTerminatorCode = (code: number) => code === SEMICOLON || code === OPEN_BRACE || code === CLOSE_BRACE;

/**
 * Where the significant part of the raw line [from, to) ends (before its comment), or -1 when the line must be
 * rewritten by templateLine: it holds a template action outside quotes, or a NUL (which templateLine turns into `x`).
 * `#` starts a comment outside quotes when it opens the line or follows a blank or `;`, `{`, `}`, as nginx reads it.
 */
export function plainLineEnd(text: string, from: number, to: number, firstSpecial = from): number {
  let quote = 0;
  // Up to the first NUL, quote, `#` or `{`, nothing can change the answer.
  for (let i = Math.max(from, firstSpecial); i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === NUL) return -1;
    if (quote !== 0) {
      if (code === BACKSLASH) {
        if (i + 1 < to && text.charCodeAt(i + 1) === NUL) return -1;
        i++;
      } else if (code === quote) {
        quote = 0;
      }
      continue;
    }
    if (code === OPEN_BRACE && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next === OPEN_BRACE || next === PERCENT || next === HASH) return -1;
    }
    if (code === HASH) {
      if (i === from) return i;
      const previous = text.charCodeAt(i - 1);
      if (isBlankCode(previous) || isTerminatorCode(previous)) return i;
    }
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) quote = code;
  }
  return to;
}

/**
 * The characters plainLineEnd acts on. Found by a native search from one to the next, so most lines (`listen 80;`,
 * `}`) are never scanned character by character; never asked twice about one stretch of text, so linear in all.
 */
const SPECIAL = /[\0"'#{]/g;

/** The position of the first NUL, quote, `#` or `{` at or after `from`; the text's length when there is none. */
export function nextSpecial(text: string, from: number): number {
  SPECIAL.lastIndex = from;
  return SPECIAL.test(text) ? SPECIAL.lastIndex - 1 : text.length;
}

/** The position of the first `=` at or after `from`; the text's length when there is none. */
export function nextEquals(text: string, from: number): number {
  const at = text.indexOf('=', from);
  return at === -1 ? text.length : at;
}

/**
 * A line without its comment, its Go / Jinja2 template syntax and its outer white space. `{{ … }}`, `{% … %}` and
 * `{# … #}` inside a line become one `x` (they stand for an argument); the ones that open or close a line are dropped,
 * so `{% if ssl %}listen 443 ssl;{% endif %}` is the statement it guards. A `{#` that opens a line and is not closed
 * on it starts a Jinja2 comment running to its `#}`; one further right ends only its own line (`server {# comment`
 * is an nginx block and a comment). `#` starts a comment outside quotes, as nginx reads it.
 */
export function templateLine(line: string, inTemplateComment: boolean): { text: string; inTemplateComment: boolean } {
  let from = 0;
  if (inTemplateComment) {
    const close = line.indexOf('#}');
    if (close === -1) return { text: '', inTemplateComment: true };
    from = close + 2;
  }
  let out = '';
  let quote = '';
  for (let i = from; i < line.length; i++) {
    const char = line[i]!;
    if (quote !== '') {
      out += char;
      if (char === '\\') out += line[++i] ?? '';
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '{' && (line[i + 1] === '{' || line[i + 1] === '%' || line[i + 1] === '#')) {
      const closer = line[i + 1] === '{' ? '}}' : `${line[i + 1]}}`;
      const close = line.indexOf(closer, i + 2);
      if (close === -1) {
        const opensComment = line[i + 1] === '#' && out.trim() === '';
        return { text: trimAction(out), inTemplateComment: opensComment };
      }
      out += '\u0000'; // a placeholder, trimmed away at either end of the line
      i = close + 1;
      continue;
    }
    const last = out.charCodeAt(out.length - 1);
    if (char === '#' && (out === '' || isBlankCode(last) || isTerminatorCode(last))) break;
    if (char === '"' || char === "'") quote = char;
    out += char;
  }
  return { text: trimAction(out), inTemplateComment: false };
}

/** Outer blanks and template placeholders off; inner placeholders become `x`. */
function trimAction(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (isBlankCode(text.charCodeAt(start)) || text.charCodeAt(start) === NUL)) start++;
  while (end > start && (isBlankCode(text.charCodeAt(end - 1)) || text.charCodeAt(end - 1) === NUL)) end--;
  return text.slice(start, end).replaceAll('\u0000', 'x');
}

/**
 * `x = y` outside quotes in [from, to), on a line that is not nginx's `if (… = …)`: an assignment in code (Perl's
 * `my $x = 1;`, C's `a = b;`), whose lines otherwise end with `;`, `{` and `}` just as nginx's do.
 */
export function assigns(line: string, from: number, to: number): boolean {
  if (to - from >= 3 && line.charCodeAt(from) === 0x69 && line.charCodeAt(from + 1) === 0x66) {
    const third = line.charCodeAt(from + 2); // `if ` or `if(`
    if (third === SPACE || third === 0x28) return false;
  }
  let quote = 0;
  for (let i = from + 1; i < to - 1; i++) {
    const code = line.charCodeAt(i);
    if (quote !== 0) {
      if (code === BACKSLASH) i++;
      else if (code === quote) quote = 0;
    } else if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) quote = code;
    else if (code === 0x3d && isBlankCode(line.charCodeAt(i + 1)) && isBlankCode(line.charCodeAt(i - 1))) return true;
  }
  return false;
}

/** `{` minus `}` in [from, to) of a (comment-stripped) line, outside quotes. */
export function braceBalance(line: string, from: number, to: number): number {
  let balance = 0;
  let quote = 0;
  for (let i = from; i < to; i++) {
    const code = line.charCodeAt(i);
    if (quote !== 0) {
      if (code === BACKSLASH) i++;
      else if (code === quote) quote = 0;
    } else if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) quote = code;
    else if (code === OPEN_BRACE) balance++;
    else if (code === CLOSE_BRACE) balance--;
  }
  return balance;
}

/** Where the lower-case word `[a-z_][a-z0-9_]*` starting the range ends; `from` when the range starts with none. */
export function leadingWordEnd(line: string, from: number, to: number): number {
  const start = line.charCodeAt(from);
  if (!((start >= 0x61 && start <= 0x7a) || start === 0x5f)) return from;
  let end = from + 1;
  for (; end < to; end++) {
    const code = line.charCodeAt(end);
    if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f)) break;
  }
  return end;
}

/**
 * What follows a line's leading word (ending at `end`, the line at `to`). `nginx`: white space, `;`, `{` or nothing
 * (the arguments go on below), as after a directive name. `other`: `key: value`, `key = value`, `call(...)`, `a[i]`
 * -- other languages. `part`: anything else (`text/html` in `types`, `example.com` in a `map`, `listen-on` in BIND):
 * not a directive, but not evidence against nginx either.
 */
export function followingWord(line: string, end: number, to: number): 'nginx' | 'other' | 'part' {
  if (end === to) return 'nginx';
  const next = line.charCodeAt(end);
  if (next === SEMICOLON || next === OPEN_BRACE) return 'nginx';
  if (next === 0x3a || next === 0x3d || next === 0x28 || next === 0x5b) return 'other'; // : = ( [
  if (next !== SPACE && next !== TAB) return 'part';
  let argument = end;
  while (argument < to && (line.charCodeAt(argument) === SPACE || line.charCodeAt(argument) === TAB)) argument++;
  if (argument === to) return 'nginx';
  // `key = v`, `key: v`, and compound assignments (`hash |= 0;`, `n += 1;`).
  const first = line.charCodeAt(argument);
  if (first === 0x3d || first === 0x3a) return 'other';
  return argument + 1 < to && line.charCodeAt(argument + 1) === 0x3d && COMPOUND_OPERATORS.includes(line[argument]!) ? 'other' : 'nginx';
}

const COMPOUND_OPERATORS = '|&+-*/%^<>!';

/** JavaScript's white space and line terminators: what String.prototype.trimStart removes. */
export function isJsSpace(code: number): boolean {
  if (code <= 0x20) return code === SPACE || (code >= TAB && code <= CR);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}
