// Completion: at a statement's start the directives nginx allows in the cursor's context (in the target version),
// as snippets; after a flag or enum directive its words; after a directive's leading arguments the parameters
// nginx.org documents for it in the target version (completion-parameters.ts); after proxy_pass/fastcgi_pass/grpc_pass... the upstream
// names; after `$` the variables readable there. The context comes from the blocks around the cursor and, for a
// file that is included (a snippet, a Dokku sigil), from where it is included (model/directive-context.ts).
//
//   completionsAt(ctx, offset)                       candidates, each replacing [start, offset)
//   completionDocumentation(reference, options)      Markdown for a candidate's `reference` (resolved lazily)
import type { NginxVersion } from '../analysis/versions.js';
import { contextOfBlocks } from '../model/directive-context.js';
import { namesLuaBlock } from '../model/plain-tokens.js';
import {
  allDirectives,
  entryAtVersion,
  existsInVersion,
  moduleInfo,
  variableEntry,
  type DirectiveContext,
  type DirectiveEntry,
} from '../model/directive-table.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { FeatureContext, FeatureLocation } from './context.js';
import { cursorAt, type Slot } from './completion-cursor.js';
import { parameterCandidates } from './completion-parameters.js';
import { snippetCandidates } from './completion-snippets.js';
import { upstreamCandidates } from './completion-upstreams.js';
import { variablesInScope } from './completion-variables.js';
import { contextsLabel, directiveReference, moduleLabel, pickEntry, targetVersion, variableReference } from './directive-reference.js';

export type CandidateKind = 'directive' | 'block' | 'value' | 'variable' | 'upstream' | 'snippet';

/** What a candidate's documentation is made from, small enough to travel in the LSP item's `data`. */
export type CandidateReference =
  | { directive: string; module: string }
  | { variable: string; protocol: 'http' | 'stream' };

export interface CompletionCandidate {
  label: string;
  kind: CandidateKind;
  detail: string;
  /** The text replaced: from the start of what is typed to the cursor. */
  span: FeatureLocation['span'];
  /** Inserted by a client without snippet support. */
  text: string;
  /** LSP snippet syntax (`location ${1:/} {\n\t$0\n}`). */
  snippet?: string;
  sortText: string;
  /** Markdown known up front (workspace variables, upstreams). */
  documentation?: string;
  reference?: CandidateReference;
  deprecated?: boolean;
}

/** Escapes what a snippet's choice or placeholder would read as syntax. */
function escapeSnippet(text: string): string {
  return text.replace(/[\\$}|,]/g, (ch) => `\\${ch}`);
}

/** The first argument's placeholder of the block directives that take one. */
const BLOCK_PLACEHOLDER: Readonly<Record<string, string>> = {
  location: '${1:/}',
  upstream: '${1:backend}',
  if: '(${1:\\$variable})',
  limit_except: '${1:GET}',
  map: '${1:\\$source} ${2:\\$variable}',
  geo: '${1:\\$variable}',
  split_clients: '${1:\\$source} ${2:\\$variable}',
  application: '${1:live}',
};

function snippetOf(entry: DirectiveEntry): string {
  if (entry.block) {
    const placeholder = Object.hasOwn(BLOCK_PLACEHOLDER, entry.name) ? BLOCK_PLACEHOLDER[entry.name] : entry.args.startsWith('0') ? undefined : '$1';
    return `${entry.name}${placeholder ? ` ${placeholder}` : ''} {\n\t$0\n}`;
  }
  if (entry.args === '0') return `${entry.name};`;
  const oneWord = entry.args === 'flag' || (entry.args === '1' && !entry.multiple);
  if (entry.values && oneWord) return `${entry.name} \${1|${entry.values.map(escapeSnippet).join(',')}|};`;
  return `${entry.name} $0;`;
}

/** nginx's own modules in its binary first, then the dynamic ones Debian packages, then third-party modules. */
function moduleRank(entry: DirectiveEntry): number {
  const info = moduleInfo(entry.module);
  if (info?.package) return 2;
  return info?.debian === 'static' ? 0 : 1;
}

type DirectiveItem = Omit<CompletionCandidate, 'span'>;

/** The directive items of each context and version: the table is fixed, and a location asks on every keystroke. */
const directiveItems = new Map<string, readonly DirectiveItem[]>();

function itemsIn(context: DirectiveContext, version: NginxVersion): readonly DirectiveItem[] {
  const key = `${context} ${version.join('.')}`;
  const known = directiveItems.get(key);
  if (known) return known;
  const seen = new Set<string>();
  const items: DirectiveItem[] = [];
  for (const written of allDirectives()) {
    if (seen.has(written.name) || !existsInVersion(written, version)) continue;
    const entry = entryAtVersion(written, version);
    if (!entry.contexts.includes(context) && !entry.contexts.includes('any')) continue;
    seen.add(entry.name);
    items.push({
      label: entry.name,
      kind: entry.block ? 'block' : 'directive',
      detail: `${moduleLabel(entry.module)} · ${contextsLabel(entry)}`,
      text: entry.name,
      snippet: snippetOf(entry),
      sortText: `${moduleRank(entry)}${entry.deprecated ? 1 : 0}${entry.name}`,
      reference: { directive: entry.name, module: entry.module },
      ...(entry.deprecated ? { deprecated: true } : {}),
    });
  }
  directiveItems.set(key, items);
  return items;
}

function directiveCandidates(slot: Slot & { kind: 'name' }, offset: number, context: DirectiveContext, version: NginxVersion): CompletionCandidate[] {
  const span = { startOffset: slot.start, endOffset: offset };
  return [...itemsIn(context, version).map((item) => ({ ...item, span })), ...snippetCandidates(span, context, version)];
}

function valueCandidates(slot: Slot & { kind: 'argument' }, offset: number, entry: DirectiveEntry | undefined): CompletionCandidate[] {
  if (!entry?.values) return [];
  if (!entry.multiple && slot.index > 0) return [];
  const given = new Set(slot.previous);
  return entry.values
    .filter((value) => !given.has(value))
    .map((value, i) => ({
      label: value,
      kind: 'value' as const,
      detail: `${entry.name} ${entry.default === value ? '(default)' : 'value'}`,
      span: { startOffset: slot.start, endOffset: offset },
      text: value,
      sortText: String(i).padStart(3, '0'),
      reference: { directive: entry.name, module: entry.module },
    }));
}

function variableCandidates(ctx: FeatureContext, slot: Slot & { kind: 'variable' }, offset: number, blocks: Parameters<typeof variablesInScope>[1], context: DirectiveContext | undefined, version: NginxVersion): CompletionCandidate[] {
  const closed = ctx.file.text[offset] === '}';
  return variablesInScope(ctx.workspace, blocks, context, version).map((variable) => {
    const written = slot.braced ? `\${${variable.name}${closed ? '' : '}'}` : `$${variable.name}`;
    const candidate: CompletionCandidate = {
      label: `$${variable.name}`,
      kind: 'variable',
      detail: variable.detail,
      span: { startOffset: slot.start, endOffset: offset },
      text: written,
      sortText: `${variable.rank}${variable.name}`,
    };
    if (variable.documentation) candidate.documentation = variable.documentation;
    if (variable.protocol) candidate.reference = { variable: variable.name, protocol: variable.protocol };
    return candidate;
  });
}

/**
 * `trigger`: the character whose typing asked (the LSP trigger character). A space or `/` only asks for an
 * argument's words or upstreams: indenting a line must not pop up every directive.
 */
export function completionsAt(ctx: FeatureContext, offset: number, trigger?: string): CompletionCandidate[] {
  const cursor = cursorAt(ctx.file, offset);
  if (!cursor) return [];
  const { slot, blocks } = cursor;
  if ((trigger === ' ' || trigger === '/') && slot.kind !== 'argument') return [];
  // Inside Lua code nothing nginx offers applies.
  if (blocks.some((block) => namesLuaBlock(block.name))) return [];
  const context = contextOfBlocks(ctx.workspace, ctx.file, blocks);
  const version = targetVersion(ctx.options);
  switch (slot.kind) {
    case 'name':
      return context ? directiveCandidates(slot, offset, context, version) : [];
    case 'variable':
      return variableCandidates(ctx, slot, offset, blocks, context, version);
    case 'argument': {
      const entry = pickEntry(slot.directive, context, version);
      const parameters = entry ? parameterCandidates(entry, slot, offset, version) : [];
      return [...valueCandidates(slot, offset, entry), ...parameters, ...upstreamCandidates(ctx.workspace, slot, offset, context)];
    }
  }
}

/** The documentation of a candidate's reference: the directive's or built-in variable's table entry. */
export function completionDocumentation(reference: CandidateReference, options: AnalyzeOptions): string | undefined {
  const version = targetVersion(options);
  if ('directive' in reference) {
    const entry = allDirectives().find((candidate) => candidate.name === reference.directive && candidate.module === reference.module);
    return entry && directiveReference(entryAtVersion(entry, version), version).join('\n');
  }
  const variable = variableEntry(reference.variable, reference.protocol);
  return variable && variableReference(variable, reference.variable).join('\n');
}
