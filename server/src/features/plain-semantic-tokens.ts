// Semantic tokens of a plain nginx text without tree-sitter: one linear scan that reads the text as the text reader
// (model/text-reader.ts) does, declining exactly the texts it declines, and pushes the pieces the tree walk of
// semantic-tokens.ts pushes (each string's quotes, literal runs and variables; directive names; numbers; variables;
// comments; template actions inside Lua bodies), in the same order, through the same RawTokens. So the tokens are
// those collectSemanticTokens gives, for a full or a range request, and the wasm parser need not be loaded for them:
// test/property/plain-semantic-tokens.test.ts holds the two to each other.
import { luaBodyEnd, luaBracketEnd, luaQuotedEnd, lineEndFrom, openersOnlyIn } from '../model/lua-body.js';
import {
  Bail,
  BACKSLASH,
  CLOSE_BRACE,
  commentEnd,
  COMMENT_END_CHAR,
  conditionEnd,
  type ConditionPieces,
  directiveNameEnd,
  DOLLAR,
  DOUBLE_QUOTE,
  fragmentEnd,
  HASH,
  isSpaceCode,
  isTokenStartCode,
  LUA_BLOCK_SUFFIX,
  OPEN_BRACE,
  OPEN_PAREN,
  opensTemplateAction,
  SEMICOLON,
  SINGLE_QUOTE,
  startsVariable,
  TEMPLATE_OPENERS,
  UNUSUAL_SPACE,
  variableEnd,
} from '../model/plain-tokens.js';
import { MAX_DEPTH } from '../model/text-reader.js';
import { LineIndex } from './positions.js';
import { luaTemplateActions, MAX_TOKENIZED_LENGTH, NUMBER, RawTokens, toLineTokens, type Offsets, type SemanticToken } from './semantic-tokens.js';

const MINUS = '-'.charCodeAt(0);
const OPEN_BRACKET = '['.charCodeAt(0);

class PlainTokenScanner {
  private at: number;
  /** The Lua bodies read, each as its start and end (the closing `}`), as the text reader keeps them. */
  readonly luaBodies: number[] = [];
  /** A condition's strings and variables, pushed where conditionEnd finds them (made once, not per condition). */
  private readonly conditionPieces: ConditionPieces = {
    string: (start) => this.string(start),
    variable: (start, end) => this.out.push(start, end, 'variable'),
  };

  constructor(
    private readonly text: string,
    private readonly out: RawTokens,
  ) {
    this.at = text.startsWith('\uFEFF') ? 1 : 0;
  }

  /** White space and comments from `from`, each comment pushed (skipSpaceAndComments, telling the comments). */
  private gap(from: number): number {
    const text = this.text;
    let i = from;
    for (;;) {
      const c = text.charCodeAt(i);
      if (isSpaceCode(c)) i++;
      else if (c === HASH) {
        this.out.push(i, commentEnd(text, i), 'comment');
        const lineEnd = text.indexOf(COMMENT_END_CHAR, i + 1);
        i = lineEnd === -1 ? text.length : lineEnd;
      } else return i;
    }
  }

  statements(inBlock: boolean, depth: number): void {
    if (depth > MAX_DEPTH) throw new Bail();
    const text = this.text;
    for (;;) {
      this.at = this.gap(this.at);
      if (this.at >= text.length) {
        if (inBlock) throw new Bail();
        return;
      }
      const c = text.charCodeAt(this.at);
      if (c === CLOSE_BRACE) {
        if (!inBlock) throw new Bail();
        return;
      }
      if (c === OPEN_BRACE || c === SEMICOLON) throw new Bail();
      this.directive(depth);
    }
  }

  private directive(depth: number): void {
    const text = this.text;
    const start = this.at;
    const c = text.charCodeAt(start);
    let identifier = false;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) this.at = this.string(start);
    else {
      const end = directiveNameEnd(text, start);
      if (end > start) {
        identifier = true;
        this.out.push(start, end, 'keyword');
        this.at = end;
      } else this.word();
    }
    const nameEnd = this.at;
    if (identifier && nameEnd - start === 2 && text.startsWith('if', start)) this.condition();
    else this.readArguments();
    if (identifier && nameEnd - start > LUA_BLOCK_SUFFIX.length && text.endsWith(LUA_BLOCK_SUFFIX, nameEnd)) this.luaBlock();
    else if (text.charCodeAt(this.at) === SEMICOLON) this.at++;
    else {
      this.at++;
      this.statements(true, depth + 1);
      this.at++;
    }
  }

  private readArguments(): void {
    const text = this.text;
    for (;;) {
      const at = this.gap(this.at);
      this.at = at;
      const c = text.charCodeAt(at);
      if (c === SEMICOLON) return;
      if (c === OPEN_BRACE) {
        if (opensTemplateAction(text, at)) throw new Bail();
        return;
      }
      if (at >= text.length || c === CLOSE_BRACE) throw new Bail();
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) this.at = this.string(at);
      else this.word();
    }
  }

  /** A bare word (the text reader's wordToken): a number when it is one literal that reads as one, else its variables. */
  private word(): void {
    const text = this.text;
    const length = text.length;
    const start = this.at;
    let variables = false;
    let at = start;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === DOLLAR && startsVariable(text, at)) {
        const end = variableEnd(text, at);
        this.out.push(at, end, 'variable');
        variables = true;
        at = end;
      } else {
        const end = fragmentEnd(text, at);
        if (end === at || (at === start && isTokenStartCode(c))) throw new Bail();
        at = end;
      }
      if (at >= length) break;
      const next = text.charCodeAt(at);
      if (next === SEMICOLON || isSpaceCode(next)) break;
      if (next === OPEN_BRACE) {
        if (opensTemplateAction(text, at)) throw new Bail();
        break;
      }
    }
    this.at = at;
    if (!variables && NUMBER.test(text.slice(start, at))) this.out.push(start, at, 'number');
  }

  /** A quoted string from its opening quote: the quotes and the literal runs as strings, the variables; its end. */
  private string(start: number): number {
    const text = this.text;
    const out = this.out;
    const quote = text.charCodeAt(start);
    const length = text.length;
    out.push(start, start + 1, 'string');
    let run = start + 1;
    let i = run;
    for (;;) {
      if (i >= length) throw new Bail();
      const c = text.charCodeAt(i);
      if (c === quote) {
        out.push(run, i, 'string');
        out.push(i, i + 1, 'string');
        return i + 1;
      }
      if (c === DOLLAR && startsVariable(text, i)) {
        out.push(run, i, 'string');
        const end = variableEnd(text, i);
        out.push(i, end, 'variable');
        i = run = end;
      } else if (c === OPEN_BRACE && text.charCodeAt(i + 1) === OPEN_BRACE) {
        throw new Bail();
      } else {
        i += c === BACKSLASH && i + 1 < length ? 2 : 1;
      }
    }
  }

  /** An `if` condition (conditionEnd): its strings and variables pushed; the scanner left at the block's `{`. */
  private condition(): void {
    this.at = this.gap(this.at);
    if (this.text.charCodeAt(this.at) !== OPEN_PAREN) throw new Bail();
    this.at = this.gap(conditionEnd(this.text, this.at, this.conditionPieces));
  }

  /** A Lua block's body: opaque, but for template actions in it, painted as the tree walk paints its lua_code. */
  private luaBlock(): void {
    const text = this.text;
    const open = this.at;
    if (text.charCodeAt(open) !== OPEN_BRACE) throw new Bail();
    const close = luaBodyEnd(text, open + 1);
    this.luaBodies.push(open + 1, close);
    this.at = close + 1;
    const body = text.slice(open + 1, close);
    if (TEMPLATE_OPENERS.some((opener) => body.includes(opener))) {
      const [start, end] = luaCodeExtent(text, open + 1, close);
      if (end > start) luaTemplateActions(this.out, start, text.slice(start, end));
    }
  }
}

/**
 * The extent of the grammar's lua_code in a body from `from` to its closing `}` (scan_lua_code): past the leading
 * white space, to the end of the last construct that begins with anything else.
 */
function luaCodeExtent(text: string, from: number, close: number): [number, number] {
  let i = from;
  while (i < close && isSpaceCode(text.charCodeAt(i))) i++;
  const start = i;
  let end = start;
  while (i < close) {
    const c = text.charCodeAt(i);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) i = luaQuotedEnd(text, i);
    else if (c === OPEN_BRACKET) i = luaBracketEnd(text, i);
    else if (c === MINUS && text.charCodeAt(i + 1) === MINUS) {
      i = text.charCodeAt(i + 2) === OPEN_BRACKET ? luaBracketEnd(text, i + 2) : lineEndFrom(text, i + 2);
    } else i++;
    if (!isSpaceCode(c)) end = i;
  }
  return [start, end];
}

/**
 * The semantic tokens of `text` when the text reader reads it (readPlainFile: no template action outside Lua bodies,
 * no NUL, nothing the grammar would not accept); undefined when it declines, and only the tree can tell.
 */
export function collectPlainSemanticTokens(text: string, range?: Offsets): SemanticToken[] | undefined {
  if (text.length > MAX_TOKENIZED_LENGTH) return [];
  const out = new RawTokens(range ?? { startOffset: 0, endOffset: text.length });
  return collectPlainTokens(text, out) ? toLineTokens(out.tokens, new LineIndex(text)) : undefined;
}

/** Pushes the tokens of a plain `text` into `out`; false (what was pushed is to be dropped) when it is not plain. */
export function collectPlainTokens(text: string, out: RawTokens): boolean {
  if (text.length > MAX_TOKENIZED_LENGTH) return true;
  if (UNUSUAL_SPACE.test(text)) return false;
  const opener = TEMPLATE_OPENERS.some((open) => text.includes(open));
  if (opener && !text.includes(LUA_BLOCK_SUFFIX)) return false;
  const scanner = new PlainTokenScanner(text, out);
  try {
    scanner.statements(false, 0);
  } catch (error) {
    if (error instanceof Bail) return false;
    throw error;
  }
  return !opener || openersOnlyIn(text, scanner.luaBodies);
}
