// Mutations of real configs for the value-check agreement test (test/rules/directive-values-agreement.test.ts): each
// takes one directive of a file nginx accepts and changes one value the way people get it wrong (a unit nginx does
// not know, a misspelt listen parameter, a second keepalive...) or the way nginx still accepts (another case, a
// repeatable directive written twice). Deterministic: the same corpus gives the same mutations.
import { directiveIn, type DirectiveContext } from '../../server/src/model/directive-table.js';
import type { Directive } from '../../server/src/model/types.js';
import { handlerSyntax } from '../../server/src/model/value-syntax.js';

export type MutationKind =
  | 'size' | 'time' | 'number' | 'flag' | 'enum' | 'case' | 'listen parameter' | 'listen port'
  | 'upstream server' | 'keepalive' | 'return' | 'rewrite flag' | 'duplicate' | 'repeatable';

export interface Mutation {
  kind: MutationKind;
  text: string;
  /** What was done, for the report. */
  what: string;
}

function* all(list: readonly Directive[]): Generator<Directive> {
  for (const directive of list) {
    yield directive;
    yield* all(directive.children);
  }
}

/** The context a directive of an http, server or location snippet is in, by its block (top level: the snippet's). */
function contextOf(directive: Directive, top: DirectiveContext): DirectiveContext {
  const parent = directive.parent?.name;
  if (parent === undefined) return top;
  if (parent === 'if') return directive.parent?.parent?.name === 'server' ? 'if-in-server' : 'if-in-location';
  return (['http', 'server', 'location', 'upstream', 'limit_except'] as const).find((c) => c === parent) ?? 'location';
}

const replaceSpan = (text: string, start: number, end: number, by: string): string => text.slice(0, start) + by + text.slice(end);
const plainArgs = (directive: Directive): boolean => directive.args.every((arg) => !arg.quoted && !arg.value.includes('$') && !arg.templated);
const swapCase = (word: string): string => (word === word.toLowerCase() ? word.toUpperCase() : word.toLowerCase());

/** Inserts a copy of the directive on the next line, indented like it. */
function duplicated(text: string, directive: Directive): string {
  const copy = text.slice(directive.span.startOffset, directive.span.endOffset);
  return replaceSpan(text, directive.span.endOffset, directive.span.endOffset, `\n${directive.indent}${copy}`);
}

/** Every mutation of one directive; the caller picks a few per kind across the corpus. */
export function mutationsOf(text: string, directive: Directive, top: DirectiveContext): Mutation[] {
  const out: Mutation[] = [];
  const entry = directiveIn(directive.name, contextOf(directive, top));
  if (!entry || !plainArgs(directive) || directive.blockSpan) return out;
  const syntax = handlerSyntax(entry);
  const first = directive.args[0];
  const at = (kind: MutationKind, start: number, end: number, by: string, what: string) =>
    out.push({ kind, text: replaceSpan(text, start, end, by), what: `${directive.name}: ${what}` });
  const after = (kind: MutationKind, by: string, what: string) => {
    const last = directive.args[directive.args.length - 1];
    if (last) at(kind, last.span.endOffset, last.span.endOffset, ` ${by}`, what);
  };
  if (first && syntax) {
    const s = first.span;
    if ((syntax.value === 'size' || syntax.value === 'offset' || syntax.value === 'size-or-variables') && directive.args.length === 1) {
      at('size', s.startOffset, s.endOffset, `${first.value}B`, `${first.value} -> ${first.value}B`);
      // `g` is ngx_parse_offset's unit, not ngx_parse_size's: valid for client_max_body_size, not for buffers.
      at('size', s.startOffset, s.endOffset, '1g', `${first.value} -> 1g`);
      if (/[kmg]$/.test(first.value)) at('case', s.startOffset, s.endOffset, first.value.toUpperCase(), `${first.value} -> upper case`);
    }
    if ((syntax.value === 'msec' || syntax.value === 'sec') && directive.args.length === 1) {
      at('time', s.startOffset, s.endOffset, `${first.value}ec`, `${first.value} -> ${first.value}ec`);
      at('time', s.startOffset, s.endOffset, '1m30s', `${first.value} -> 1m30s`);
      at('time', s.startOffset, s.endOffset, '250ms', `${first.value} -> 250ms`);
    }
    if (syntax.value === 'number' && directive.args.length === 1) at('number', s.startOffset, s.endOffset, `${first.value}k`, `${first.value} -> ${first.value}k`);
    if (syntax.value === 'flag') {
      at('flag', s.startOffset, s.endOffset, first.value === 'on' ? 'yes' : 'no', `${first.value} -> yes/no`);
      at('case', s.startOffset, s.endOffset, swapCase(first.value), `${first.value} -> other case`);
    }
    if (syntax.value === 'enum' || syntax.value === 'bitmask') {
      at('enum', s.startOffset, s.endOffset, `${first.value}x`, `${first.value} -> ${first.value}x`);
      at('case', s.startOffset, s.endOffset, swapCase(first.value), `${first.value} -> other case`);
    }
    if (syntax.repeat === 'once' && directive.name !== 'listen') {
      out.push({ kind: 'duplicate', text: duplicated(text, directive), what: `${directive.name} written twice` });
    }
    if (syntax.repeat === 'yes' && !['server', 'listen', 'include', 'location'].includes(directive.name)) {
      out.push({ kind: 'repeatable', text: duplicated(text, directive), what: `${directive.name} written twice` });
    }
  }
  if (!first) return out;
  const s = first.span;
  switch (`${entry.module} ${directive.name}`) {
    case 'ngx_http_core_module listen': {
      after('listen parameter', 'defualt_server', 'defualt_server added');
      after('listen parameter', 'backlog=abc', 'backlog=abc added');
      after('listen parameter', 'rcvbuf=64k', 'rcvbuf=64k added (valid)');
      const port = /([0-9]+)$/.exec(first.value);
      if (port && port[1]!.length >= 2) {
        at('listen port', s.endOffset - 1, s.endOffset, 'O', `port ${port[1]} -> ${port[1]!.slice(0, -1)}O`);
      }
      break;
    }
    case 'ngx_http_upstream_module server':
      after('upstream server', 'max_fail=3', 'max_fail=3 added');
      after('upstream server', 'weight=0', 'weight=0 added');
      after('upstream server', 'BACKUP', 'BACKUP added');
      after('upstream server', 'fail_timeout=10x', 'fail_timeout=10x added');
      after('upstream server', 'max_fails=2 fail_timeout=1m', 'valid max_fails and fail_timeout added');
      break;
    case 'ngx_http_upstream_keepalive_module keepalive':
      at('keepalive', s.startOffset, s.endOffset, 'on', `${first.value} -> on`);
      at('keepalive', s.startOffset, s.endOffset, '0', `${first.value} -> 0`);
      at('keepalive', s.startOffset, s.endOffset, `${first.value} ${first.value}`, `${first.value} -> twice`);
      out.push({ kind: 'keepalive', text: duplicated(text, directive), what: 'keepalive written twice' });
      break;
    case 'ngx_http_rewrite_module return':
      if (/^[0-9]+$/.test(first.value)) at('return', s.startOffset, s.endOffset, 'abc', `${first.value} -> abc`);
      break;
    case 'ngx_http_rewrite_module rewrite': {
      const flag = directive.args[2];
      if (flag) {
        at('rewrite flag', flag.span.startOffset, flag.span.endOffset, 'bogus', `${flag.value} -> bogus`);
        at('rewrite flag', flag.span.startOffset, flag.span.endOffset, flag.value.toUpperCase(), `${flag.value} -> upper case`);
      } else {
        after('rewrite flag', 'bogus', 'flag bogus added');
        after('rewrite flag', 'break', 'flag break added');
      }
      break;
    }
  }
  return out;
}

/** Every mutation of every directive of a parsed file, in file order. */
export function fileMutations(text: string, directives: readonly Directive[], top: DirectiveContext): Mutation[] {
  const out: Mutation[] = [];
  for (const directive of all(directives)) for (const mutation of mutationsOf(text, directive, top)) out.push(mutation);
  return out;
}
