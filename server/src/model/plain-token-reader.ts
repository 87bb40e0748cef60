// The token layer of the plain reader (text-reader.ts): a name, a bare word, a quoted string or an `if` condition read
// at the reader's place in the text, as the grammar's scanner reads them (plain-tokens.ts holds the character
// classes), each with its variables. A token the grammar would read otherwise throws Bail; one nginx may read
// otherwise than the grammar is told to the nginx check (plain-nginx-check.ts), which then leaves the answer to nginx.
import type { TokenSource } from './arguments.js';
import { resolveEscapes } from './arguments.js';
import {
  Bail,
  CHAR_CLASS,
  conditionEnd,
  directiveNameEnd,
  DOLLAR,
  DOUBLE_QUOTE,
  fragmentEnd,
  isSpaceCode,
  isTokenStartCode,
  OPEN_BRACE,
  OPEN_PAREN,
  opensTemplateAction,
  SEMICOLON,
  SINGLE_QUOTE,
  skipSpaceAndComments,
  SPACE_BIT,
  startsVariable,
  stringEnd,
  variableEnd,
  variableNameAt,
} from './plain-tokens.js';
import { noItems } from './exact-array.js';
import { owned } from './interned.js';
import { OffsetSpan, type LineIndex, type SpanFrame } from './line-index.js';
import { nginxReadsAsWords, type PlainNginxCheck } from './plain-nginx-check.js';
import type { Argument, Variable } from './types.js';

/** The shared empty list, once: it is every simple directive's children and most arguments' variables. */
export const NONE: never[] = noItems();

/** In an `if` condition, what nginx may read otherwise than the reader does (see plain-nginx-check.ts). */
const UNSURE_IN_CONDITION = /["'#}]/;

/**
 * The token just read is `tokenStart` to `at`; its variables gather in a scratch list reused from token to token,
 * copied out at its exact length by argument().
 */
export class PlainTokenReader {
  protected at: number;
  protected readonly text: string;
  protected tokenStart = 0;
  private readonly variables: Variable[] = [];
  private variableCount = 0;
  protected readonly lines: LineIndex;
  /** The frame of the spans read now: the unit's being read (text-reader.ts), else the index's. */
  protected frame: SpanFrame;
  private readonly onStringVariable = (from: number, to: number): void => {
    this.variables[this.variableCount++] = this.variable(from, to);
  };

  constructor(
    source: TokenSource,
    /** Told each statement's first word and end, to find nginx's first error on the way (plain-nginx-check.ts). */
    protected readonly check?: PlainNginxCheck,
    /**
     * Each string read owns its characters (interned.ts `owned`): an edited block's, read into a model that keeps
     * it. They are made so when read, not replaced afterwards: V8 optimizes code on the premise that a field
     * assigned once keeps its value, and replacing the strings of every argument at the first edit invalidated the
     * optimized code that read them (seen with --trace-deopt).
     */
    private readonly ownsStrings = false,
  ) {
    this.text = source.text;
    this.lines = source.lines;
    this.frame = source.lines.frame;
    this.at = this.text.startsWith('\uFEFF') ? 1 : 0;
    if (this.at === 1) check?.doubt();
  }

  /** `text` as the model keeps it: a copy owning its characters when the reader is told so (see the constructor). */
  private kept(text: string): string {
    return this.ownsStrings ? owned(text) : text;
  }

  /** The token from `start` to `end` as an argument, with the variables gathered while reading it. */
  protected argument(start: number, end: number): Argument {
    const text = this.text;
    const sliced = text.slice(start, end);
    const raw = this.kept(sliced);
    const first = text.charCodeAt(start);
    const quoted = first === DOUBLE_QUOTE ? '"' : first === SINGLE_QUOTE ? "'" : false;
    const resolved = resolveEscapes(quoted ? text.slice(start + 1, end - 1) : sliced);
    const value = resolved === sliced ? raw : this.kept(resolved);
    const count = this.variableCount;
    const variables = count === 0 ? NONE : this.variables.slice(0, count);
    return { raw, value, quoted, span: new OffsetSpan(start, end, this.frame), variables, templated: false };
  }

  /**
   * A directive name: a string, an identifier (a directive_name, which stops before a variable), or a word. True for
   * an identifier.
   */
  protected nameToken(): boolean {
    const text = this.text;
    const start = this.at;
    const c = text.charCodeAt(start);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      this.stringToken();
      return false;
    }
    const end = directiveNameEnd(text, start);
    if (end > start) {
      this.tokenStart = start;
      this.variableCount = 0;
      this.at = end;
      return true;
    }
    this.wordToken();
    return false;
  }

  /** A bare word: fragments and variables glued together, up to white space, `;` or a block's `{`. */
  protected wordToken(): void {
    const text = this.text;
    const length = text.length;
    const start = this.at;
    this.tokenStart = start;
    this.variableCount = 0;
    let at = start;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === DOLLAR && startsVariable(text, at)) {
        const end = variableEnd(text, at);
        this.variables[this.variableCount++] = this.variable(at, end);
        at = end;
      } else {
        const end = fragmentEnd(text, at);
        // A word's first fragment cannot start with a comment, a quote or `}` (those are other tokens).
        if (end === at || (at === start && isTokenStartCode(c))) throw new Bail();
        at = end;
      }
      if (at >= length) break;
      const next = text.charCodeAt(at);
      if (next === SEMICOLON || (next < 128 && (CHAR_CLASS[next]! & SPACE_BIT) !== 0)) break;
      if (next === OPEN_BRACE) {
        if (opensTemplateAction(text, at)) throw new Bail();
        break;
      }
    }
    this.at = at;
  }

  private variable(start: number, end: number): Variable {
    const name = variableNameAt(this.text, start, end);
    return { name: this.kept(name), span: new OffsetSpan(start, end, this.frame) };
  }

  /** A quoted string with its variables. */
  protected stringToken(): void {
    const text = this.text;
    this.tokenStart = this.at;
    this.variableCount = 0;
    this.at = stringEnd(text, this.at, this.onStringVariable);
    // nginx wants white space, `;` or `{` after a closing quote (or takes a `)`): anything else, it decides.
    const next = text.charCodeAt(this.at);
    if (this.check && !(isSpaceCode(next) || next === SEMICOLON || next === OPEN_BRACE)) this.check.doubt();
  }

  /** An `if` condition's text, `(` to `)`; the reader stops at the block's `{`. */
  protected condition(): string {
    const text = this.text;
    this.at = skipSpaceAndComments(text, this.at);
    if (text.charCodeAt(this.at) !== OPEN_PAREN) throw new Bail();
    const start = this.at;
    const end = conditionEnd(text, start);
    this.at = skipSpaceAndComments(text, end);
    const condition = text.slice(start, end);
    // nginx reads a quote, `#` or `}` starting a token as a string, a comment or a block's end; the condition, as text.
    if (this.check && UNSURE_IN_CONDITION.test(condition) && !nginxReadsAsWords(text.slice(start, this.at))) this.check.doubt();
    return this.kept(condition);
  }
}
