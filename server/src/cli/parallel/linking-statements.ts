// The statements that link files, for predict-groups.ts: `include X;`, `upstream NAME {` and `*_pass TARGET`. Read
// with the model's tokenizer (model/plain-tokens.ts, the one the text reader uses): white space, `#` comments, bare
// words, quoted strings and variables end where nginx's grammar ends them, so a commented-out include links nothing.
// Not a parse: blocks are not matched and contexts not checked, only each statement's name, arguments and what ends
// it. A wrong guess only costs time there.
//
// Unlike the text reader, which leaves templated text to the tree, this walk reads through it: a template action
// (`{{ }}`, `{% %}`, a closed `{# #}`) runs to the first closer on its line and is glued into the word around it, or,
// where a statement would start, stands alone and is skipped. An opener with no closer on its line is a block's `{`,
// and a token the model's tokenizer gives up on (an unterminated string, a string holding an action, a `${` that is
// no variable) is read on in the plainest way, never dropped with the rest of the file.
//
// Linear: the walk only moves forward, and the closers' and line ends' positions are searched for from where the last
// search stopped, so a run of unclosed `{{` on one line costs one search, not one each.
import { resolveEscapes } from '../../model/arguments.js';
import {
  Bail,
  BLOCK_BRACES,
  CLOSE_BRACE,
  fragmentEnd,
  isQuoteCode,
  isSpaceCode,
  OPEN_BRACE,
  SEMICOLON,
  skipSpaceAndComments,
  startsVariable,
  stringEnd,
  TEMPLATE_OPENERS,
  variableEnd,
} from '../../model/plain-tokens.js';

export interface Statements {
  includes: string[];
  upstreams: string[];
  passes: string[];
}

export function statementsOf(text: string): Statements {
  const walk = new StatementWalk(text);
  walk.run();
  return walk.found;
}

/** The first occurrence of a string at or after a position, searched for again only when a later one is asked for. */
class NextOccurrence {
  private from = 0;
  private found: number;

  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {
    this.found = text.indexOf(needle);
  }

  /** Callers ask with positions that never decrease (else this is still right, just not linear). */
  atOrAfter(position: number): number {
    if (position < this.from || (this.found !== -1 && this.found < position)) {
      this.from = position;
      this.found = this.text.indexOf(this.needle, position);
    }
    return this.found;
  }
}

/** Where a template action's line ends for this guess: a lone CR too (an editor shows one as a line break). */
const ACTION_LINE_ENDS = '\r\n';

/** An action's closer mirrors its opener: `{{ }}`, `{% %}`, `{# #}`. */
function closerOf(opener: string): string {
  return [...opener].reverse().map((char) => (char === BLOCK_BRACES[0] ? BLOCK_BRACES[1] : char)).join('');
}

const is = (text: string, start: number, end: number, word: string) =>
  end - start === word.length && text.startsWith(word, start);
const endsWith = (text: string, start: number, end: number, suffix: string) =>
  end - start >= suffix.length && text.startsWith(suffix, end - suffix.length);

/** What ended a statement: `;`, a block's `{`, a `}` (left for the walk), or the end of the text. */
type Terminator = typeof SEMICOLON | typeof OPEN_BRACE | typeof CLOSE_BRACE | undefined;

class StatementWalk {
  readonly found: Statements = { includes: [], upstreams: [], passes: [] };
  private at: number;
  /** By an opener's second character: where its closer (`}}`, `%}`, `#}`) next is. */
  private readonly closers = new Map<number, NextOccurrence>();
  private readonly lineEnds: NextOccurrence[];
  /** Where the current argument's leading string token ends (-1: it does not start with one). */
  private stringTokenEnd = -1;

  constructor(private readonly text: string) {
    this.at = text.startsWith('\uFEFF') ? 1 : 0;
    for (const opener of TEMPLATE_OPENERS) {
      this.closers.set(opener.charCodeAt(1), new NextOccurrence(text, closerOf(opener)));
    }
    this.lineEnds = [...ACTION_LINE_ENDS].map((char) => new NextOccurrence(text, char));
  }

  run(): void {
    const text = this.text;
    for (;;) {
      this.at = skipSpaceAndComments(text, this.at);
      if (this.at >= text.length) return;
      const c = text.charCodeAt(this.at);
      if (c === SEMICOLON || c === CLOSE_BRACE) {
        this.at++;
      } else if (c === OPEN_BRACE) {
        // A template action standing where a statement would start (`{{ if .SSL }}`, `{% for … %}`) is skipped; an
        // unclosed one, like a lone `{`, opens a block.
        const end = this.actionEnd(this.at);
        this.at = end === -1 ? this.at + 1 : end;
      } else {
        this.statement();
      }
    }
  }

  /** A directive: its name, its arguments, and what ends it; recorded when it is one of the linking statements. */
  private statement(): void {
    const text = this.text;
    const nameStart = this.at;
    const nameEnd = this.word();
    let count = 0;
    let firstStart = 0;
    let firstEnd = 0;
    let firstIsString = false;
    let terminator: Terminator;
    for (;;) {
      this.at = skipSpaceAndComments(text, this.at);
      const c = text.charCodeAt(this.at);
      if (Number.isNaN(c)) break;
      if (c === SEMICOLON || c === CLOSE_BRACE || (c === OPEN_BRACE && this.actionEnd(this.at) === -1)) {
        terminator = c;
        if (c !== CLOSE_BRACE) this.at++;
        break;
      }
      const start = this.at;
      const end = this.word();
      if (count++ === 0) {
        firstStart = start;
        firstEnd = end;
        firstIsString = this.stringTokenEnd === end;
      }
    }
    if (count === 0) return;
    let list: string[] | undefined;
    // `_pass` also matches other modules' passes, which can only add links.
    if (endsWith(text, nameStart, nameEnd, '_pass')) list = this.found.passes;
    else if (count !== 1) return;
    else if (terminator === SEMICOLON && is(text, nameStart, nameEnd, 'include')) list = this.found.includes;
    else if (terminator === OPEN_BRACE && is(text, nameStart, nameEnd, 'upstream')) list = this.found.upstreams;
    else return;
    // A string's value is inside its quotes, with escapes resolved as the model resolves them.
    const raw = firstIsString ? text.slice(firstStart + 1, firstEnd - 1) : text.slice(firstStart, firstEnd);
    list.push(resolveEscapes(raw));
  }

  /**
   * A word (a name or an argument) from `this.at`, which holds neither white space, `;`, `}`, nor a `{` that opens a
   * block: a string, or bare fragments, variables and template actions glued together. Returns its end.
   */
  private word(): number {
    const text = this.text;
    this.stringTokenEnd = -1;
    if (isQuoteCode(text.charCodeAt(this.at))) {
      const end = this.stringEnd(this.at);
      if (end !== -1) this.at = this.stringTokenEnd = end;
      else this.at = fragmentEnd(text, this.at);
    }
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (Number.isNaN(c) || isSpaceCode(c) || c === SEMICOLON) break;
      if (c === OPEN_BRACE) {
        const end = this.actionEnd(this.at);
        if (end === -1) break;
        this.at = end;
      } else if (startsVariable(text, this.at)) {
        this.at = this.variableEnd(this.at);
      } else {
        // A quote here is text, as in the rest of the word (and `"a"b` is one word).
        this.at = fragmentEnd(text, this.at);
      }
    }
    return this.at;
  }

  /** Past the string's closing quote; the first matching quote when the tokenizer gives up on it; -1 if none. */
  private stringEnd(start: number): number {
    try {
      return stringEnd(this.text, start);
    } catch (error) {
      if (!(error instanceof Bail)) throw error;
      const close = this.text.indexOf(this.text[start]!, start + 1);
      return close === -1 ? -1 : close + 1;
    }
  }

  /** Past the variable, or past its `$` when it is none (`${` with no name and `}`). */
  private variableEnd(start: number): number {
    try {
      return variableEnd(this.text, start);
    } catch (error) {
      if (!(error instanceof Bail)) throw error;
      return start + 1;
    }
  }

  /** Past the template action opening at `start` (`{{`, `{%`, `{#`), or -1: none opens there or closes on its line. */
  private actionEnd(start: number): number {
    if (this.text.charCodeAt(start) !== OPEN_BRACE) return -1;
    const closer = this.closers.get(this.text.charCodeAt(start + 1));
    const close = closer === undefined ? -1 : closer.atOrAfter(start + 2);
    if (close === -1) return -1;
    for (const lineEnds of this.lineEnds) {
      const lineEnd = lineEnds.atOrAfter(start + 2);
      if (lineEnd !== -1 && lineEnd < close) return -1;
    }
    return close + 2;
  }
}
