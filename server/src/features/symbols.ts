// The document outline: http, server (named by server_name, else listen), location (its path), upstream, map,
// stream, events, if, and the other variable-defining or top-level blocks, nested as in the file. Statements of other
// blocks are searched for nested symbols, so a server inside an unknown wrapper block still shows. Template actions
// are not symbols: a sigil's blocks nest as their braces say, names keep their `{{ }}` text.
//
//   documentSymbols(file)   OutlineSymbol[] with offsets (range: the whole block; selection: its name)
import type { Span } from '../util/types.js';
import type { Argument, ConfigFile, Directive } from '../model/types.js';
import { namesLuaBlock } from '../model/plain-tokens.js';

export type OutlineKind = 'namespace' | 'server' | 'location' | 'upstream' | 'variable' | 'condition';

export interface OutlineSymbol {
  name: string;
  /** The block directive's name (`server`, `location`, ...), for the LSP detail. */
  detail: string;
  kind: OutlineKind;
  range: Pick<Span, 'startOffset' | 'endOffset'>;
  selectionRange: Pick<Span, 'startOffset' | 'endOffset'>;
  children: OutlineSymbol[];
}

const KINDS: Readonly<Record<string, OutlineKind>> = {
  http: 'namespace',
  stream: 'namespace',
  events: 'namespace',
  mail: 'namespace',
  server: 'server',
  location: 'location',
  limit_except: 'condition',
  if: 'condition',
  upstream: 'upstream',
  map: 'variable',
  geo: 'variable',
  split_clients: 'variable',
};

const MAX_NAME_LENGTH = 120;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_NAME_LENGTH ? `${flat.slice(0, MAX_NAME_LENGTH - 1)}…` : flat;
}

function argumentsSpan(args: readonly Argument[]): Pick<Span, 'startOffset' | 'endOffset'> | undefined {
  const first = args[0];
  const last = args.at(-1);
  return first && last ? { startOffset: first.span.startOffset, endOffset: last.span.endOffset } : undefined;
}

function rawArguments(args: readonly Argument[]): string {
  return args.map((argument) => argument.raw).join(' ');
}

/** `server example.com www.example.com`, else `server :443 ssl` from its listens, else `server`. */
function serverName(block: Directive): { name: string; selection: Pick<Span, 'startOffset' | 'endOffset'> } {
  const names = block.children.filter((child) => child.name === 'server_name' && child.args.length > 0);
  const listens = block.children.filter((child) => child.name === 'listen' && child.args.length > 0);
  const source = names.length > 0 ? names : listens;
  const parts = [...new Set(source.map((directive) => rawArguments(directive.args)))];
  const selection = (source[0] && argumentsSpan(source[0].args)) ?? block.nameSpan;
  return { name: parts.length > 0 ? `server ${parts.join(' ')}` : 'server', selection };
}

function symbolOf(block: Directive, children: OutlineSymbol[]): OutlineSymbol {
  const kind = KINDS[block.name]!;
  const range = { startOffset: block.span.startOffset, endOffset: block.span.endOffset };
  if (block.name === 'server') {
    const { name, selection } = serverName(block);
    return { name: oneLine(name), detail: 'server', kind, range, selectionRange: selection, children };
  }
  const written = block.name === 'if' ? block.condition ?? '' : rawArguments(block.args);
  const selection = block.name === 'if' ? block.nameSpan : argumentsSpan(block.args) ?? block.nameSpan;
  const name = oneLine(`${block.name} ${written}`);
  return { name, detail: block.name, kind, range, selectionRange: selection, children };
}

function isSymbol(directive: Directive): boolean {
  if (!directive.blockSpan || !Object.hasOwn(KINDS, directive.name)) return false;
  // `server` inside `upstream` is a member line, never a block; a block there is nothing nginx knows either.
  return !(directive.name === 'server' && directive.parent?.name === 'upstream');
}

function collect(directives: readonly Directive[]): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  for (const directive of directives) {
    if (namesLuaBlock(directive.name)) continue;
    const nested = collect(directive.children);
    if (isSymbol(directive)) {
      symbols.push(symbolOf(directive, nested));
    } else {
      // A loop: spreading into push overflows the stack once a block holds ~125,000 symbols (a generated config).
      for (const symbol of nested) symbols.push(symbol);
    }
  }
  return symbols;
}

export function documentSymbols(file: ConfigFile): OutlineSymbol[] {
  return collect(file.directives);
}
