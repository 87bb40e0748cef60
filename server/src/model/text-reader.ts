// The directives of a plain nginx file, read straight from its text: the same model the tree walk (statements.ts)
// builds, without a call into wasm per node, which is most of what building a model costs.
//
// Only the plain part of the language: a text with a template action (`{{`, or Jinja's `{%` and `{#`), a
// `*_by_lua_block`, a `${` that is not a variable, any Unicode space, or anything the grammar would not accept is left
// to the tree (readPlainStatements returns undefined). Tokens are read as the grammar's scanner reads them, with the
// character classes of plain-tokens.ts, which test/model/reader-grammar.test.ts holds to the grammar's own.
//
// The answer depends on the text alone, never on a tree: a text declined once is declined again, so build.ts asks at
// most once per text. The reader accepts no text whose tree has an error, so the file loader skips the parse for a
// text it accepts; test/property/text-reader.test.ts holds it to that and to building the tree walk's model.
import type { TokenSource } from './arguments.js';
import { resolveEscapes } from './arguments.js';
import {
  Bail,
  CLOSE_BRACE,
  conditionEnd,
  DOUBLE_QUOTE,
  fragmentEnd,
  isIdentifier,
  isQuoteCode,
  isSpaceCode,
  isTokenStartCode,
  LUA_BLOCK_SUFFIX,
  OPEN_BRACE,
  OPEN_PAREN,
  opensTemplateAction,
  SEMICOLON,
  SINGLE_QUOTE,
  skipSpaceAndComments,
  startsVariable,
  stringEnd,
  TEMPLATE_OPENERS,
  UNUSUAL_SPACE,
  variableEnd,
  variableNameAt,
} from './plain-tokens.js';
import { exactArray } from './exact-array.js';
import { interned } from './interned.js';
import { indentAt } from './line-index.js';
import { EMPTY_SPAN } from './span.js';
import type { Argument, ConfigFile, Directive, TemplateGuard, Variable } from './types.js';

/** Deeper nesting is left to the tree walk, which needs no call stack for it (this reader recurses per block). */
const MAX_DEPTH = 200;

interface Token {
  start: number;
  end: number;
  variables: Variable[];
}

class PlainReader {
  private at: number;
  private readonly text: string;
  constructor(
    private readonly file: ConfigFile,
    private readonly source: TokenSource,
    /** Every directive of a file without template actions shares the one empty guard list, as in the tree walk. */
    private readonly guards: TemplateGuard[] = [],
  ) {
    this.text = source.text;
    this.at = this.text.startsWith('\uFEFF') ? 1 : 0;
  }

  /** Statements up to the end of the file (parent undefined) or to the `}` closing `parent`'s block. */
  statements(parent: Directive | undefined, depth: number): Directive[] {
    if (depth > MAX_DEPTH) throw new Bail();
    const list: Directive[] = [];
    for (;;) {
      this.at = skipSpaceAndComments(this.text, this.at);
      if (this.at >= this.text.length) {
        if (parent) throw new Bail();
        return list;
      }
      const c = this.text.charCodeAt(this.at);
      if (c === CLOSE_BRACE) {
        if (!parent) throw new Bail();
        return list;
      }
      if (c === OPEN_BRACE || c === SEMICOLON) throw new Bail();
      list.push(this.directive(parent, depth));
    }
  }

  /** The one statement starting at `offset` (a block with everything in it), and the offset after it. */
  statementAt(offset: number, parent: Directive | undefined, depth: number): { directive: Directive; end: number } {
    this.at = offset;
    return { directive: this.directive(parent, depth), end: this.at };
  }

  private directive(parent: Directive | undefined, depth: number): Directive {
    const text = this.text;
    const lines = this.source.lines;
    const start = this.at;
    const { token: name, identifier } = this.nameToken();
    const raw = text.slice(name.start, name.end);
    // An identifier ending in `_by_lua_block` names a Lua block, whose body is not nginx syntax.
    if (identifier && raw.endsWith(LUA_BLOCK_SUFFIX)) throw new Bail();
    const directive: Directive = {
      name: interned(identifier ? raw : this.argument(name).value),
      nameSpan: lines.span(name.start, name.end),
      args: [],
      span: EMPTY_SPAN,
      blockSpan: undefined,
      children: [],
      condition: undefined,
      parent,
      file: this.file,
      guards: this.guards,
      indent: indentAt(text, lines, start),
    };
    if (identifier && raw === 'if') directive.condition = this.condition();
    else this.readArguments(directive);
    if (text.charCodeAt(this.at) === SEMICOLON) {
      this.at++;
    } else {
      const open = this.at;
      this.at++;
      directive.children = exactArray(this.statements(directive, depth + 1));
      this.at++;
      directive.blockSpan = lines.span(open, this.at);
    }
    directive.span = lines.span(start, this.at);
    return directive;
  }

  /** Arguments up to the `;` or the `{` of a block, where the reader stops. */
  private readArguments(directive: Directive): void {
    const text = this.text;
    for (;;) {
      this.at = skipSpaceAndComments(text, this.at);
      const c = text.charCodeAt(this.at);
      if (c === SEMICOLON || c === OPEN_BRACE) {
        if (c === OPEN_BRACE && opensTemplateAction(text, this.at)) throw new Bail();
        directive.args = exactArray(directive.args);
        return;
      }
      if (Number.isNaN(c) || c === CLOSE_BRACE) throw new Bail();
      directive.args.push(this.argument(isQuoteCode(c) ? this.stringToken() : this.wordToken()));
    }
  }

  private argument(token: Token): Argument {
    const text = this.text;
    const raw = text.slice(token.start, token.end);
    const first = text.charCodeAt(token.start);
    const quoted = first === DOUBLE_QUOTE ? '"' : first === SINGLE_QUOTE ? "'" : false;
    const value = resolveEscapes(quoted ? text.slice(token.start + 1, token.end - 1) : raw);
    const variables = exactArray(token.variables);
    return { raw, value, quoted, span: this.source.lines.span(token.start, token.end), variables, templated: false };
  }

  /** A directive name: a string, an identifier (a directive_name, which stops before a variable), or a word. */
  private nameToken(): { token: Token; identifier: boolean } {
    const text = this.text;
    const start = this.at;
    const c = text.charCodeAt(start);
    if (isQuoteCode(c)) return { token: this.stringToken(), identifier: false };
    if (!startsVariable(text, start)) {
      const end = fragmentEnd(text, start);
      if (isIdentifier(text, start, end)) {
        this.at = end;
        return { token: { start, end, variables: [] }, identifier: true };
      }
    }
    return { token: this.wordToken(), identifier: false };
  }

  /** A bare word: fragments and variables glued together, up to white space, `;` or a block's `{`. */
  private wordToken(): Token {
    const text = this.text;
    const start = this.at;
    const variables: Variable[] = [];
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (startsVariable(text, this.at)) {
        variables.push(this.variable(this.at, variableEnd(text, this.at)));
      } else {
        const end = fragmentEnd(text, this.at);
        // A word's first fragment cannot start with a comment, a quote or `}` (those are other tokens).
        if (end === this.at || (this.at === start && isTokenStartCode(c))) throw new Bail();
        this.at = end;
      }
      const next = text.charCodeAt(this.at);
      if (Number.isNaN(next) || isSpaceCode(next) || next === SEMICOLON) break;
      if (next === OPEN_BRACE) {
        if (opensTemplateAction(text, this.at)) throw new Bail();
        break;
      }
    }
    return { start, end: this.at, variables };
  }

  private variable(start: number, end: number): Variable {
    this.at = end;
    return { name: variableNameAt(this.text, start, end), span: this.source.lines.span(start, end) };
  }

  /** A quoted string with its variables. */
  private stringToken(): Token {
    const start = this.at;
    const variables: Variable[] = [];
    this.at = stringEnd(this.text, start, (from, to) => variables.push(this.variable(from, to)));
    return { start, end: this.at, variables };
  }

  /** An `if` condition's text, `(` to `)`; the reader stops at the block's `{`. */
  private condition(): string {
    const text = this.text;
    this.at = skipSpaceAndComments(text, this.at);
    if (text.charCodeAt(this.at) !== OPEN_PAREN) throw new Bail();
    const start = this.at;
    const end = conditionEnd(text, start);
    this.at = skipSpaceAndComments(text, end);
    return text.slice(start, end);
  }
}

/** The file's directives read from its text, or undefined when the text is not plain enough (see the file comment). */
export function readPlainStatements(file: ConfigFile, source: TokenSource): Directive[] | undefined {
  const text = source.text;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (TEMPLATE_OPENERS.some((opener) => text.includes(opener)) || UNUSUAL_SPACE.test(body)) return undefined;
  return unlessDeclined(() => new PlainReader(file, source).statements(undefined, 0));
}

/** What `read` returns, or undefined when the reader declined the text (Bail). */
function unlessDeclined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Bail) return undefined;
    throw error;
  }
}

/**
 * The statement starting at `offset` of `source.text`, read as the statement of `parent`'s block at `depth` (the
 * language server's incremental model re-reads one edited block this way); undefined when the reader declines it.
 * The caller checks the text of that statement for what readPlainStatements checks the whole text for. Its
 * directives get `guards`: the file's one empty guard list.
 */
export function readPlainStatementAt(
  file: ConfigFile,
  source: TokenSource,
  at: { offset: number; parent: Directive | undefined; depth: number; guards: TemplateGuard[] },
): { directive: Directive; end: number } | undefined {
  return unlessDeclined(() => new PlainReader(file, source, at.guards).statementAt(at.offset, at.parent, at.depth));
}

/** True when `text` between `start` and `end` has nothing that makes readPlainStatements decline a whole text. */
export function isPlainStretch(text: string, start: number, end: number): boolean {
  const stretch = text.slice(start, end);
  return !TEMPLATE_OPENERS.some((opener) => stretch.includes(opener)) && !UNUSUAL_SPACE.test(stretch);
}
