// nginx's first syntax error (nginx-first-error.ts) for a text the plain reader (text-reader.ts) accepts, found while
// the reader reads it instead of by tokenizing the file a second time, which was a fifth of building a model.
//
// Why the reader's statements can stand in for nginx's tokens: a text it accepts has no template opener, no `}` or
// `;` or `{` where no statement can have it, and no statement or block left open at the end, so of nginx's own
// tokenizer errors only a closing quote glued to what follows is possible; and where the reader and nginx could split
// the text differently it says so (`doubt`), and then nginx's tokenizer decides after all:
//   - a byte order mark, which nginx reads as the first word's first character;
//   - a closing quote followed by anything but white space, `;` or `{` (nginx: `unexpected "x"`, or `)`, which it
//     takes; the reader goes on either way);
//   - a directive_name followed by a variable (`proxy_pass$x`: one word to nginx, a name and an argument here);
//   - a word name ending in `_by_lua_block` (nginx reads its block as Lua);
//   - an `if` condition holding a quote, `#` or `}` (which nginx reads as a string, a comment or a block's end where
//     they start a token, while the reader's condition takes them as text), unless nginx's tokenizer reads that
//     stretch as words up to the reader's `{` (nginxReadsAsWords), as it does `($http_x ~ "a b")`.
// Otherwise every statement's first word (quotes included, as nginx names it), its word count and the offsets of
// its `;` or `{` are nginx's, and the checks below are nginxFirstError's, made on them in the same order.
// test/property/plain-nginx-check.test.ts holds the two to the same answer.
import { BLOCK_DIRECTIVES, nginxFirstError, onlySimple, readsOwnBody, type NginxSyntaxError } from './nginx-first-error.js';
import { nginxTokens } from './nginx-tokens.js';

export class PlainNginxCheck {
  private found: NginxSyntaxError | undefined;
  private doubted = false;
  /** By block depth: the first word of the directive whose block is open there, and whether its module reads it. */
  private readonly names: string[] = [];
  private readonly custom: boolean[] = [];

  /** The reader and nginx may split the text differently: only nginx's tokenizer can tell. */
  doubt(): void {
    this.doubted = true;
  }

  /** True while the answer is still to be found here (no error yet, no doubt). */
  private get open(): boolean {
    return this.found === undefined && !this.doubted;
  }

  /** A statement at block depth `depth` (0: the file's top level) opens a block with the `{` at `at`. */
  block(name: string, depth: number, at: number): void {
    if (!this.open) return;
    if (depth > 0 && this.custom[depth - 1]) {
      this.stop('unexpected "{"', at);
      return;
    }
    const simple = name === 'server' ? depth > 0 && this.names[depth - 1] === 'upstream' : onlySimple(name);
    if (simple) {
      this.stop(`directive "${name}" is not terminated by ";"`, at);
      return;
    }
    this.names[depth] = name;
    this.custom[depth] = readsOwnBody(name);
  }

  /** A statement at `depth` with `argCount` words after its first ends with the `;` at `at`. */
  simple(name: string, argCount: number, depth: number, at: number): void {
    if (!this.open || (depth > 0 && this.custom[depth - 1])) return;
    if (!BLOCK_DIRECTIVES.has(name)) return;
    // `server 10.0.0.1:80;` is an upstream's member; only an argument-less `server;` lacks its block.
    if (name === 'server' && (argCount > 0 || (depth > 0 && this.names[depth - 1] === 'upstream'))) return;
    this.stop(`directive "${name}" has no opening "{"`, at);
  }

  /** nginx's first error in `text`, the text the reader read. */
  firstError(text: string): NginxSyntaxError | undefined {
    return this.doubted ? nginxFirstError(text) : this.found;
  }

  /** True when the answer came from the reader's statements alone (for the tests that hold it to nginx's). */
  get fromStatements(): boolean {
    return !this.doubted;
  }

  private stop(message: string, at: number): void {
    this.found = { message, start: at, end: at + 1 };
  }
}

/**
 * True when nginx's tokenizer reads `stretch` (an `if` statement from its condition's `(` up to its block's `{`) as
 * words and then that `{`: nothing ends the statement sooner or reads on past the `{`. (Its first
 * word is `if` there, which matters only to the Lua check on a `{`: one here that this takes for Lua says false.)
 */
export function nginxReadsAsWords(stretch: string): boolean {
  // A comment or a string nginx opens where the reader's condition does not may hide the `{`: then it is not last.
  const tokens = nginxTokens(`${stretch}{`);
  if (tokens.at(-1) !== '{') return false;
  for (let i = 0; i < tokens.length - 1; i++) if (!tokens[i]!.startsWith('word ')) return false;
  return true;
}
