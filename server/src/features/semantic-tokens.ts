// Semantic tokens from the syntax tree, so nginx configs and Go-template sigils are coloured where no TextMate
// grammar knows them: directive names, `$variables`, strings, plain numbers, comments, and template actions (the
// `{{ }}` delimiters and control keywords as macros, the pipeline lexed by template-lexer.ts). Jinja tags are painted
// the same way (`{% %}` and the tag's first word as macros, `{# #}` as a comment).
//
//   SEMANTIC_TOKEN_TYPES                      the legend's token types (no modifiers)
//   collectSemanticTokens(parser, text, r?)   absolute tokens, sorted, non-overlapping, one line each
//   encodeSemanticTokens(tokens)              the LSP's relative five-integer encoding
//
// The text is parsed afresh (bounded by size and a parse timeout) and the tree deleted before returning.
import type { Tree, TreeCursor } from 'web-tree-sitter';
import { actionRanges } from '../analysis/template-text.js';
import type { NginxParser } from '../parser/loader.js';
import { LineIndex } from './positions.js';
import { lexPipeline, type PipelineTokenKind } from './template-lexer.js';

export const SEMANTIC_TOKEN_TYPES = [
  'keyword',
  'variable',
  'string',
  'number',
  'comment',
  'macro',
  'function',
  'operator',
  'property',
] as const;
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];

export interface SemanticToken {
  line: number;
  /** UTF-16 column. */
  character: number;
  length: number;
  type: SemanticTokenType;
}

/** Bigger documents get no tokens (the editor falls back to its grammar, if any). */
export const MAX_TOKENIZED_LENGTH = 4 * 1024 * 1024;
const PARSE_TIMEOUT_MS = 2_000;
const MAX_TOKENS = 1_000_000;

export interface RawToken {
  start: number;
  end: number;
  type: SemanticTokenType;
}

export type Offsets = { startOffset: number; endOffset: number };

/** A plain number, with nginx's size and time suffixes: a word of one literal so read is a number token. */
export const NUMBER = /^\d+(?:\.\d+)?(?:ms|[smhdwyMkKgG])?$/;
const TEMPLATE_DELIMITERS = new Set(['{{', '{{-', '}}', '-}}', '{%', '{%-', '{%+', '%}', '-%}', '+%}']);
const PIPELINE_TYPES: Record<PipelineTokenKind, SemanticTokenType> = {
  variable: 'variable',
  property: 'property',
  string: 'string',
  number: 'number',
  function: 'function',
  operator: 'operator',
  keyword: 'keyword',
  macro: 'macro',
};

/** The tokens pushed so far, within `range`: a string's adjacent parts join, as the editor sees one string. */
export class RawTokens {
  readonly tokens: RawToken[] = [];

  constructor(readonly range: Offsets) {}

  push(start: number, end: number, type: SemanticTokenType): void {
    if (end <= start || end <= this.range.startOffset || start >= this.range.endOffset) return;
    const last = this.tokens.at(-1);
    // A string's quotes and literal parts are one token as far as the editor is concerned.
    if (last && type === 'string' && last.type === 'string' && last.end === start) last.end = end;
    else if (this.tokens.length < MAX_TOKENS) this.tokens.push({ start, end, type });
  }
}

/**
 * Every piece pushed for the whole text, in order, kept to replay for any range: a version's tokens are reused for
 * the full and the range requests alike, each getting exactly what a fresh collection for its range would.
 */
export class TokenPieces extends RawTokens {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly types: SemanticTokenType[] = [];
  /** True while each piece starts at or after the previous one's end: then a range's first piece is searched. */
  private ordered = true;

  constructor(length: number) {
    super({ startOffset: 0, endOffset: length });
  }

  override push(start: number, end: number, type: SemanticTokenType): void {
    if (end <= start) return;
    const count = this.starts.length;
    if (count > 0 && start < this.ends[count - 1]!) this.ordered = false;
    this.starts.push(start);
    this.ends.push(end);
    this.types.push(type);
  }

  /** The tokens of `range` (default all), as RawTokens(range) would have them from the same pushes. */
  replay(range?: Offsets): RawToken[] {
    const out = new RawTokens(range ?? this.range);
    const { starts, ends, types } = this;
    let i = 0;
    if (range && this.ordered) {
      // The first piece ending after the range's start (ends ascend when pieces do not overlap).
      let high = ends.length;
      while (i < high) {
        const mid = (i + high) >>> 1;
        if (ends[mid]! <= range.startOffset) i = mid + 1;
        else high = mid;
      }
    }
    for (; i < starts.length; i++) {
      if (range && this.ordered && starts[i]! >= range.endOffset) break;
      out.push(starts[i]!, ends[i]!, types[i]!);
    }
    return out.tokens;
  }
}

class TokenCollector {
  constructor(private readonly raw: RawTokens) {}

  private get range(): Offsets {
    return this.raw.range;
  }

  private push(start: number, end: number, type: SemanticTokenType): void {
    this.raw.push(start, end, type);
  }

  /** Visits the cursor's node and its subtree; leaves the cursor where it found it. */
  visit(cursor: TreeCursor): void {
    const { startIndex, endIndex } = cursor;
    if (endIndex < this.range.startOffset || startIndex > this.range.endOffset) return;
    switch (cursor.nodeType) {
      case 'comment':
      case 'template_comment':
        return this.push(startIndex, endIndex, 'comment');
      case 'directive_name':
        return this.push(startIndex, endIndex, 'keyword');
      case 'variable':
        return this.push(startIndex, endIndex, 'variable');
      case 'template_control':
      case 'template_expression':
        return this.eachChild(cursor, () => this.templatePart(cursor));
      case 'string':
        return this.eachChild(cursor, () => this.stringPart(cursor));
      case 'word':
        return this.word(cursor);
      case 'lua_code':
        return luaTemplateActions(this.raw, startIndex, cursor.nodeText);
    }
    this.eachChild(cursor, () => this.visit(cursor));
  }

  private eachChild(cursor: TreeCursor, visitChild: () => void): void {
    if (!cursor.gotoFirstChild()) return;
    do visitChild();
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  private stringPart(cursor: TreeCursor): void {
    if (cursor.nodeType === 'literal' || !cursor.nodeIsNamed) this.push(cursor.startIndex, cursor.endIndex, 'string');
    else this.visit(cursor);
  }

  private word(cursor: TreeCursor): void {
    const { startIndex, endIndex } = cursor;
    const node = cursor.currentNode;
    const only = node.childCount === 1 ? node.firstChild : null;
    if (only?.type === 'literal' && NUMBER.test(only.text)) return this.push(startIndex, endIndex, 'number');
    this.eachChild(cursor, () => {
      if (cursor.nodeType !== 'literal') this.visit(cursor);
    });
  }

  private templatePart(cursor: TreeCursor): void {
    const type = cursor.nodeType;
    if (TEMPLATE_DELIMITERS.has(type) || type === 'template_keyword') {
      this.push(cursor.startIndex, cursor.endIndex, 'macro');
    } else if (type === 'template_pipeline') {
      const start = cursor.startIndex;
      for (const token of lexPipeline(cursor.nodeText)) this.push(start + token.start, start + token.end, PIPELINE_TYPES[token.kind]);
    }
  }
}

/**
 * A Lua body is opaque to the grammar, but templates (ingress-nginx's) put actions in it too: paint those the way
 * the grammar's actions are painted, and leave the Lua alone.
 */
export function luaTemplateActions(out: RawTokens, offset: number, lua: string): void {
  for (const [start, end] of actionRanges(lua)) {
    // Go actions and Jinja (or Liquid) tags; not `{# #}`, whose `{#` is also Lua (a table holding a length, `{#t}`).
    const kind = lua[start + 1];
    if (kind === '#') continue;
    const closer = kind === '%' ? '%}' : '}}';
    const open = /^[-+]/.test(lua.slice(start + 2, start + 3)) ? 3 : 2;
    const closed = lua.endsWith(closer, end);
    const close = closed && /[-+]$/.test(lua.slice(0, end - 2)) && end - start >= open + 3 ? 3 : closed ? 2 : 0;
    const inner = lua.slice(start + open, end - close);
    if (inner.trimStart().startsWith('/*')) {
      out.push(offset + start, offset + end, 'comment');
      continue;
    }
    out.push(offset + start, offset + start + open, 'macro');
    for (const token of lexPipeline(inner)) {
      out.push(offset + start + open + token.start, offset + start + open + token.end, PIPELINE_TYPES[token.kind]);
    }
    out.push(offset + end - close, offset + end, 'macro');
  }
}


/** Splits tokens at line breaks (LSP tokens are single-line) and drops any that would overlap the previous one. */
export function toLineTokens(raw: readonly RawToken[], lines: LineIndex): SemanticToken[] {
  const result: SemanticToken[] = [];
  let lastEnd = 0;
  for (const token of [...raw].sort((a, b) => a.start - b.start)) {
    if (token.start < lastEnd) continue;
    lastEnd = token.end;
    let { line } = lines.positionAt(token.start);
    let start = token.start;
    while (start < token.end) {
      const end = Math.min(token.end, lines.lineContentEnd(line));
      if (end > start) result.push({ line, character: start - lines.lineStart(line), length: end - start, type: token.type });
      line++;
      if (line >= lines.lineCount) break;
      start = Math.max(start, lines.lineStart(line));
    }
  }
  return result;
}

function parseBounded(parser: NginxParser, text: string): Tree | undefined {
  try {
    return parser.parse(text, null, PARSE_TIMEOUT_MS);
  } catch {
    return undefined; // a parse timeout: no colouring rather than a stuck server
  }
}

/** `range` limits the tokens to those touching it (a `semanticTokens/range` request); default the whole text. */
export function collectSemanticTokens(parser: NginxParser, text: string, range?: Offsets): SemanticToken[] {
  if (text.length > MAX_TOKENIZED_LENGTH) return [];
  const out = new RawTokens(range ?? { startOffset: 0, endOffset: text.length });
  collectTreeTokens(parser, text, out);
  return toLineTokens(out.tokens, new LineIndex(text));
}

/** Pushes the tokens of `text`'s tree into `out` (none when the parse times out). */
export function collectTreeTokens(parser: NginxParser, text: string, out: RawTokens): void {
  if (text.length > MAX_TOKENIZED_LENGTH) return;
  const tree = parseBounded(parser, text);
  if (!tree) return;
  try {
    const cursor = tree.walk();
    try {
      new TokenCollector(out).visit(cursor);
    } finally {
      cursor.delete();
    }
  } finally {
    tree.delete();
  }
}

export function encodeSemanticTokens(tokens: readonly SemanticToken[]): number[] {
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const token of tokens) {
    const deltaLine = token.line - line;
    const deltaStart = deltaLine === 0 ? token.character - character : token.character;
    data.push(deltaLine, deltaStart, token.length, SEMANTIC_TOKEN_TYPES.indexOf(token.type), 0);
    line = token.line;
    character = token.character;
  }
  return data;
}
