// A small lexer for the pipeline of a Go-template action (`or (eq $scheme "http") $.SSL_INUSE`), for colouring
// sigil templates: variables (`$x`, `$.APP`), fields (`.APP`), string and number literals, function names, `:=` and
// `|`, and the keywords of a control action. Never used to understand a template, only to paint it.

import { TEMPLATE_CONTROL_WORDS } from '../model/template-guards.js';

export type PipelineTokenKind = 'variable' | 'property' | 'string' | 'number' | 'function' | 'operator' | 'keyword' | 'macro';

export interface PipelineToken {
  /** Offsets within the pipeline text. */
  start: number;
  end: number;
  kind: PipelineTokenKind;
}

const LEXEME =
  /\s+|"(?:[^"\\\r\n]|\\.)*"?|`[^`]*`?|'(?:[^'\\\r\n]|\\.)*'?|\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[0-9][0-9A-Za-z_.+-]*|:=|[=|]|[A-Za-z_][A-Za-z0-9_]*|[\s\S]/gy;

const CONSTANTS: ReadonlySet<string> = new Set(['true', 'false', 'nil']);

function kindOf(lexeme: string): PipelineTokenKind | undefined {
  const first = lexeme[0]!;
  if (first === '"' || first === '`' || first === "'") return 'string';
  if (first === '$') return 'variable';
  if (first === '.') return 'property'; // `.FIELD`, or `.` alone: the current value
  if (/[0-9]/.test(first)) return 'number';
  if (lexeme === ':=' || lexeme === '=' || lexeme === '|') return 'operator';
  if (/^[A-Za-z_]/.test(lexeme)) {
    if (TEMPLATE_CONTROL_WORDS.has(lexeme)) return 'macro';
    return CONSTANTS.has(lexeme) ? 'keyword' : 'function';
  }
  return undefined;
}

export function lexPipeline(text: string): PipelineToken[] {
  const tokens: PipelineToken[] = [];
  LEXEME.lastIndex = 0;
  for (let match = LEXEME.exec(text); match; match = LEXEME.exec(text)) {
    const kind = kindOf(match[0]);
    if (kind && !/^\s/.test(match[0])) tokens.push({ start: match.index, end: match.index + match[0].length, kind });
    if (LEXEME.lastIndex >= text.length) break;
  }
  return tokens;
}
