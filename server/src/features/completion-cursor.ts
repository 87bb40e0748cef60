// What is being typed at the cursor, for completion: a directive name at the start of a statement, an argument of
// some directive, or a `$variable`; and the blocks around it. The statement being typed is usually incomplete (no
// `;` yet), which the parser may read as part of the next line, so the statement is lexed from the text: from the
// end of the last complete statement before the cursor (the model knows those) up to the cursor.
//
//   cursorAt(file, offset)   { slot, blocks } or undefined (in a comment, a string's middle, a template action)
import type { ConfigFile, Directive } from '../model/types.js';

export type Slot =
  /** The first word of a statement: `start` is where the typed word begins. */
  | { kind: 'name'; start: number; prefix: string }
  /** Argument `index` (0-based) of `directive`, with the arguments before it. */
  | { kind: 'argument'; directive: string; index: number; previous: string[]; start: number; prefix: string }
  /** A `$name` or `${name` being typed: `start` is the offset of the `$`. */
  | { kind: 'variable'; start: number; prefix: string; braced: boolean };

export interface Cursor {
  slot: Slot;
  /** The blocks enclosing the cursor, outermost first. */
  blocks: Directive[];
}

interface Word {
  text: string;
  start: number;
}

/** The innermost blocks around `offset` and the end of the last complete statement before it. */
function enclosing(file: ConfigFile, offset: number): { blocks: Directive[]; anchor: number } {
  const blocks: Directive[] = [];
  let anchor = 0;
  let list = file.directives;
  for (;;) {
    let inner: Directive | undefined;
    for (const directive of list) {
      const block = directive.blockSpan;
      if (directive.span.endOffset <= offset) {
        // Only a statement that really ends (`;`, `}`) is complete: the parser closes an unfinished one early.
        const last = file.text[directive.span.endOffset - 1];
        if (last === ';' || last === '}') anchor = Math.max(anchor, directive.span.endOffset);
      }
      else if (block && block.startOffset < offset && offset < block.endOffset) inner = directive;
    }
    if (!inner) return { blocks, anchor };
    blocks.push(inner);
    anchor = Math.max(anchor, inner.blockSpan!.startOffset + 1);
    list = inner.children;
  }
}

const ACTION_CLOSE: Readonly<Record<string, string>> = { '{{': '}}', '{%': '%}', '{#': '#}' };

/** The end (exclusive) of the template action opening at `i`, or -1 when it is not closed before `limit`. */
function actionEnd(text: string, i: number, limit: number): number {
  const close = ACTION_CLOSE[text.slice(i, i + 2)];
  if (!close) return -1;
  const end = text.indexOf(close, i + 2);
  return end === -1 || end + 2 > limit ? -1 : end + 2;
}

/** nginx's white space: a form feed or vertical tab is text there. */
function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** The end of the word starting at `i`, stopping at `limit`; undefined when `limit` falls inside a template action. */
function wordEnd(text: string, i: number, limit: number): number | undefined {
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    for (let j = i + 1; j < limit; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === quote) return j + 1;
    }
    return limit;
  }
  let j = i;
  while (j < limit) {
    const ch = text[j]!;
    if (ch === '{' && ACTION_CLOSE[text.slice(j, j + 2)] !== undefined) {
      const end = actionEnd(text, j, limit);
      if (end === -1) return undefined;
      j = end;
    } else if (ch === '$' && text[j + 1] === '{') {
      const close = text.indexOf('}', j + 2);
      j = close === -1 || close >= limit ? limit : close + 1;
    } else if (isSpace(ch) || ch === ';' || ch === '{' || ch === '}') {
      break;
    } else {
      j++;
    }
  }
  return j;
}

/** The words of the statement the cursor is in, or undefined when the cursor is in a comment or template action. */
function statementWords(text: string, anchor: number, offset: number): Word[] | undefined {
  let words: Word[] = [];
  let i = anchor;
  while (i < offset) {
    const ch = text[i]!;
    if (isSpace(ch)) {
      i++;
    } else if (ch === '#') {
      const lineEnd = text.indexOf('\n', i);
      if (lineEnd === -1 || lineEnd >= offset) return undefined;
      i = lineEnd;
    } else if (ch === '{' && ACTION_CLOSE[text.slice(i, i + 2)] !== undefined && words.length === 0) {
      // A template action at a statement's start is a control action (`{{ if }}`, `{% for %}`): a boundary.
      const end = actionEnd(text, i, offset);
      if (end === -1) return undefined;
      i = end;
    } else if (ch === ';' || ch === '{' || ch === '}') {
      words = [];
      i++;
    } else {
      const end = wordEnd(text, i, offset);
      if (end === undefined) return undefined;
      words.push({ text: text.slice(i, end), start: i });
      i = end;
    }
  }
  return words;
}

const NAME = /^[A-Za-z0-9_]*$/;
/** The variable being typed at the end of a word: `$na`, `${na`. Anchored, one pass: no backtracking. */
const VARIABLE_TAIL = /\$(\{?)([A-Za-z0-9_]*)$/;

export function cursorAt(file: ConfigFile, offset: number): Cursor | undefined {
  const { blocks, anchor } = enclosing(file, offset);
  const words = statementWords(file.text, anchor, offset);
  if (!words) return undefined;
  const last = words.at(-1);
  const typing = last && last.start + last.text.length === offset ? last : undefined;
  const previous = typing ? words.slice(0, -1) : words;
  const partial = typing?.text ?? '';
  const start = typing?.start ?? offset;
  const variable = VARIABLE_TAIL.exec(partial);
  if (variable) {
    const at = start + variable.index;
    return { blocks, slot: { kind: 'variable', start: at, prefix: variable[2]!, braced: variable[1] === '{' } };
  }
  if (previous.length === 0) return NAME.test(partial) ? { blocks, slot: { kind: 'name', start, prefix: partial } } : undefined;
  // A quoted argument being typed gets only variables: no flag or upstream name is ever quoted.
  if (partial.startsWith('"') || partial.startsWith("'")) return undefined;
  const [name, ...args] = previous.map((word) => word.text);
  return { blocks, slot: { kind: 'argument', directive: name!, index: args.length, previous: args, start, prefix: partial } };
}
