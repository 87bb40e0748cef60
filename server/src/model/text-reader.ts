// The directives of a plain nginx file, read straight from its text: the same model the tree walk (statements.ts)
// builds, without a call into wasm per node, which is most of what building a model costs.
//
// Only the plain part of the language: a text with a template opener (`{{`, or Jinja's `{%` and `{#`) anywhere but
// in a `*_by_lua_block` body (whose extent is read as the scanner's scan_lua_code finds it), a `${` that is not a
// variable, a NUL, or anything the grammar would not accept is left to the tree (readPlainStatements returns
// undefined). Tokens are read as the grammar's scanner reads them (plain-token-reader.ts), with the character classes
// of plain-tokens.ts, which test/model/reader-grammar.test.ts holds to the grammar's own. This file builds the
// statements from them.
//
// The answer depends on the text alone, never on a tree: a text declined once is declined again, so build.ts asks at
// most once per text. The reader accepts no text whose tree has an error, so the file loader skips the parse for a
// text it accepts; test/property/text-reader.test.ts holds it to that and to building the tree walk's model.
import type { TokenSource } from './arguments.js';
import {
  Bail,
  CLOSE_BRACE,
  DOLLAR,
  DOUBLE_QUOTE,
  isQuoteCode,
  LUA_BLOCK_SUFFIX,
  namesLuaBlock,
  OPEN_BRACE,
  opensTemplateAction,
  SEMICOLON,
  SINGLE_QUOTE,
  skipSpaceAndComments,
  TEMPLATE_OPENERS,
  UNUSUAL_SPACE,
} from './plain-tokens.js';
import { luaBodyEnd, openersOnlyIn } from './lua-body.js';
import { interned } from './interned.js';
import { indentAt, OffsetSpan, SpanFrame } from './line-index.js';
import { EMPTY_SPAN } from './span.js';
import { DirectiveNode, FileHome } from './directive-node.js';
import { PlainNginxCheck } from './plain-nginx-check.js';
import { NONE, PlainTokenReader } from './plain-token-reader.js';
import type { Argument, ConfigFile, Directive, TemplateGuard } from './types.js';

/**
 * Blocks whose statements the incremental model re-reads one by one (incremental-model.ts): a statement of the file
 * or of one of these, all its ancestors among them, is a unit, whose spans share a frame of their own.
 */
export const UNIT_CONTAINERS: ReadonlySet<string> = new Set(['http', 'stream', 'mail', 'events']);

/** Deeper nesting is left to the tree walk, which needs no call stack for it (this reader recurses per block). */
export const MAX_DEPTH = 200;

/**
 * Reads one text. Allocation per token is kept to what the model keeps: a statement's arguments and children gather
 * in scratch lists reused from statement to statement (by depth for the children), each copied out at its exact
 * length once complete, as the token reader does with a token's variables.
 */
class PlainReader extends PlainTokenReader {
  private readonly args: Argument[] = [];
  private readonly lists: Directive[][] = [];
  /** The deepest block level holding a statement (0: the file's top level), for the nesting limit (build.ts). */
  deepest = 0;
  /** The Lua bodies read, each as its start and end (the closing `}`), in text order. */
  readonly luaBodies: number[] = [];
  /** Inside a unit (UNIT_CONTAINERS): its statements are in the unit's frame, not in frames of their own. */
  private inUnit = false;

  constructor(
    /** The file the statements read belong to (directive-node.ts). */
    private readonly home: FileHome,
    source: TokenSource,
    /** Every directive of a file without template actions shares the one empty guard list, as in the tree walk. */
    private readonly guards: TemplateGuard[] = [],
    check?: PlainNginxCheck,
    /** The strings read own their characters (plain-token-reader.ts): a block read into a kept model. */
    ownsStrings = false,
  ) {
    super(source, check, ownsStrings);
  }

  /** Statements up to the end of the file (parent undefined) or to the `}` closing `parent`'s block. */
  statements(parent: Directive | undefined, depth: number): Directive[] {
    if (depth > MAX_DEPTH) throw new Bail();
    const list = (this.lists[depth] ??= []);
    let count = 0;
    for (;;) {
      this.at = skipSpaceAndComments(this.text, this.at);
      if (this.at >= this.text.length) {
        if (parent) throw new Bail();
        return list.slice(0, count);
      }
      const c = this.text.charCodeAt(this.at);
      if (c === CLOSE_BRACE) {
        if (!parent) throw new Bail();
        if (count === 0) return NONE;
        if (depth > this.deepest) this.deepest = depth;
        return list.slice(0, count);
      }
      if (c === OPEN_BRACE || c === SEMICOLON) throw new Bail();
      list[count++] = this.directive(parent, depth);
    }
  }

  /** The one statement starting at `offset` (a block with everything in it), and the offset after it. */
  statementAt(offset: number, parent: Directive | undefined, depth: number): { directive: Directive; end: number } {
    this.at = offset;
    return { directive: this.directive(parent, depth), end: this.at };
  }

  private directive(parent: Directive | undefined, depth: number): Directive {
    const text = this.text;
    const lines = this.lines;
    const start = this.at;
    // A unit's statement: the spans in it get a frame of their own (line-index.ts SpanFrame), from its name on.
    const outer = this.frame;
    const unit = !this.inUnit;
    if (unit) this.frame = new SpanFrame(lines, true);
    const identifier = this.nameToken();
    const nameStart = this.tokenStart;
    const nameEnd = this.at;
    // nginx's name for the statement: its first word as written, quotes included.
    const raw = text.slice(nameStart, nameEnd);
    const check = this.check;
    if (check && (identifier ? text.charCodeAt(nameEnd) === DOLLAR : !isQuoteCode(text.charCodeAt(nameStart)) && raw.endsWith(LUA_BLOCK_SUFFIX))) {
      check.doubt();
    }
    const name = interned(identifier ? raw : this.argument(nameStart, nameEnd).value);
    const nameSpan = new OffsetSpan(nameStart, nameEnd, this.frame);
    const directive = new DirectiveNode(name, nameSpan, NONE, EMPTY_SPAN, undefined, NONE, undefined, parent, this.home, this.guards, indentAt(text, lines, start));
    // Within a unit that is not a container, every statement is the unit's: none has a frame of its own.
    if (unit && !UNIT_CONTAINERS.has(name)) this.inUnit = true;
    if (identifier && raw === 'if') directive.condition = this.condition();
    else directive.args = this.readArguments();
    // An identifier ending in `_by_lua_block` names a Lua block, whose body is not nginx syntax: its extent alone.
    if (identifier && namesLuaBlock(raw)) this.luaBlock(directive);
    else if (text.charCodeAt(this.at) === SEMICOLON) {
      check?.simple(raw, directive.args.length, depth, this.at);
      this.at++;
    } else {
      const open = this.at;
      check?.block(raw, depth, open);
      this.at++;
      directive.children = this.statements(directive, depth + 1);
      this.at++;
      directive.blockSpan = new OffsetSpan(open, this.at, this.frame);
    }
    directive.span = new OffsetSpan(start, this.at, this.frame);
    if (unit) {
      this.frame = outer;
      this.inUnit = false;
    }
    return directive;
  }

  /**
   * The body of a Lua block, the reader at its `{` (without one the grammar has no Lua block directive). nginx reads it
   * with its Lua module's own tokenizer, which only nginx-tokens.ts follows: the check leaves the answer to it.
   */
  private luaBlock(directive: Directive): void {
    const open = this.at;
    if (this.text.charCodeAt(open) !== OPEN_BRACE) throw new Bail();
    const close = luaBodyEnd(this.text, open + 1);
    this.luaBodies.push(open + 1, close);
    this.check?.doubt();
    this.at = close + 1;
    directive.blockSpan = new OffsetSpan(open, this.at, this.frame);
  }

  /** Arguments up to the `;` or the `{` of a block, where the reader stops. */
  private readArguments(): Argument[] {
    const text = this.text;
    const args = this.args;
    let count = 0;
    for (;;) {
      const at = skipSpaceAndComments(text, this.at);
      this.at = at;
      const c = text.charCodeAt(at);
      if (c === SEMICOLON) return count === 0 ? NONE : args.slice(0, count);
      if (c === OPEN_BRACE) {
        if (opensTemplateAction(text, at)) throw new Bail();
        return count === 0 ? NONE : args.slice(0, count);
      }
      if (at >= text.length || c === CLOSE_BRACE) throw new Bail();
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) this.stringToken();
      else this.wordToken();
      args[count++] = this.argument(at, this.at);
    }
  }
}

/** The file's directives read from its text, or undefined when the text is not plain enough (see the file comment). */
export function readPlainStatements(file: ConfigFile, source: TokenSource): Directive[] | undefined {
  return readPlainFile(file, source)?.directives;
}

export interface PlainReading {
  directives: Directive[];
  /** The deepest block level holding a statement (0: the file's top level). */
  deepest: number;
  /** nginx's first error, found on the way (plain-nginx-check.ts). */
  nginx: PlainNginxCheck;
}

/** readPlainStatements, with what the reader found out about nginx's first error in the same pass. */
export function readPlainFile(file: ConfigFile, source: TokenSource): PlainReading | undefined {
  const text = source.text;
  if (UNUSUAL_SPACE.test(text)) return undefined;
  // An opener inside a Lua body is Lua's (`[[ {% if x %} ]]` for a Lua template library): no template action.
  const opener = TEMPLATE_OPENERS.some((open) => text.includes(open));
  if (opener && !text.includes(LUA_BLOCK_SUFFIX)) return undefined;
  const nginx = new PlainNginxCheck();
  const reader = new PlainReader(new FileHome(file), source, [], nginx);
  const directives = unlessDeclined(() => reader.statements(undefined, 0));
  if (!directives || (opener && !openersOnlyIn(text, reader.luaBodies))) return undefined;
  return { directives, deepest: reader.deepest, nginx };
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
 * directives get `guards`: the file's one empty guard list. Its strings own their characters (interned.ts `owned`).
 */
export function readPlainStatementAt(
  home: FileHome,
  source: TokenSource,
  at: { offset: number; parent: Directive | undefined; depth: number; guards: TemplateGuard[] },
): { directive: Directive; end: number } | undefined {
  return unlessDeclined(() => new PlainReader(home, source, at.guards, undefined, true).statementAt(at.offset, at.parent, at.depth));
}

/** True when `text` between `start` and `end` has nothing that makes readPlainStatements decline a whole text. */
export function isPlainStretch(text: string, start: number, end: number): boolean {
  const stretch = text.slice(start, end);
  return !TEMPLATE_OPENERS.some((opener) => stretch.includes(opener)) && !UNUSUAL_SPACE.test(stretch);
}
