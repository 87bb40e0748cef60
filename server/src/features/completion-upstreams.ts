// Upstream names for the first argument of a pass directive: `proxy_pass http://|`, `grpc_pass grpc://|`,
// `fastcgi_pass |`... Every `upstream NAME {}` of the workspace of the same protocol (http or stream) is offered,
// with its servers and keepalive in the documentation.
import { writtenAt } from '../analysis/message-parts.js';
import { contextOfDirective } from '../model/directive-context.js';
import type { DirectiveContext } from '../model/directive-table.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import type { CompletionCandidate } from './completion.js';
import type { Slot } from './completion-cursor.js';
import { protocolOf } from './completion-variables.js';
import { code, directiveCode } from './markdown.js';

/** The schemes each pass directive takes before an upstream name; `bare`: a name alone is valid too. */
const PASSES: Readonly<Record<string, { schemes: string[]; bare: boolean }>> = {
  proxy_pass: { schemes: ['http', 'https'], bare: false },
  grpc_pass: { schemes: ['grpc', 'grpcs'], bare: true },
  uwsgi_pass: { schemes: ['uwsgi', 'suwsgi'], bare: true },
  fastcgi_pass: { schemes: [], bare: true },
  scgi_pass: { schemes: [], bare: true },
  memcached_pass: { schemes: [], bare: true },
};

const MAX_SERVERS_SHOWN = 5;

interface NamedUpstream {
  name: string;
  directive: Directive;
}

function collect(directives: readonly Directive[], into: Directive[]): void {
  for (const directive of directives) {
    if (directive.name === 'upstream' && directive.blockSpan && directive.args[0]) into.push(directive);
    else collect(directive.children, into);
  }
}

function upstreamsOf(workspace: Workspace, protocol: 'http' | 'stream'): NamedUpstream[] {
  const blocks: Directive[] = [];
  for (const file of workspace.files) collect(file.directives, blocks);
  const seen = new Set<string>();
  const named: NamedUpstream[] = [];
  for (const directive of blocks) {
    const name = directive.args[0]!.value;
    if (seen.has(name.toLowerCase()) || protocolOf(contextOfDirective(workspace, directive)) !== protocol) continue;
    seen.add(name.toLowerCase());
    named.push({ name, directive });
  }
  return named;
}

function documentation(upstream: NamedUpstream): string {
  const children = upstream.directive.children;
  const servers = children.filter((child) => child.name === 'server').map((server) => code(server.args.map((arg) => arg.raw).join(' ')));
  const shown = servers.length > MAX_SERVERS_SHOWN ? [...servers.slice(0, MAX_SERVERS_SHOWN), `${servers.length - MAX_SERVERS_SHOWN} more`] : servers;
  const keepalive = children.find((child) => child.name === 'keepalive');
  return [
    `**upstream ${code(upstream.name)}** · ${writtenAt(upstream.directive)}`,
    '',
    `servers: ${shown.length > 0 ? shown.join(', ') : 'none written'}`,
    '',
    `keepalive: ${keepalive ? directiveCode(keepalive) : 'none written'}`,
  ].join('\n');
}

export function upstreamCandidates(
  workspace: Workspace,
  slot: Slot & { kind: 'argument' },
  offset: number,
  context: DirectiveContext | undefined,
): CompletionCandidate[] {
  if (slot.index !== 0 || !Object.hasOwn(PASSES, slot.directive)) return [];
  const protocol = protocolOf(context);
  // In stream, proxy_pass takes the name alone.
  const pass = protocol === 'stream' ? { schemes: [], bare: true } : PASSES[slot.directive]!;
  const separator = slot.prefix.indexOf('://');
  let start = slot.start;
  let scheme = '';
  if (separator !== -1) {
    if (!pass.schemes.includes(slot.prefix.slice(0, separator))) return [];
    start += separator + 3;
  } else if (!pass.bare) {
    // Nothing typed past the scheme yet: offer the names with the first scheme written out.
    scheme = `${pass.schemes[0]}://`;
  }
  return upstreamsOf(workspace, protocol).map((upstream) => ({
    label: `${scheme}${upstream.name}`,
    kind: 'upstream',
    detail: `upstream · ${writtenAt(upstream.directive)}`,
    span: { startOffset: start, endOffset: offset },
    text: `${scheme}${upstream.name}`,
    sortText: `0${upstream.name}`,
    documentation: documentation(upstream),
  }));
}
