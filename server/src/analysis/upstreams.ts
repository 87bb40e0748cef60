// Every `upstream NAME { }` of the http context, by name. `stream { upstream ... }` blocks are left out: stream has no
// keepalive directive, so nothing about them is ever flagged.
//
//   upstreams(ws)             every http upstream, in nginx order (a block included twice is one Upstream)
//   findUpstreams(ws, name)   those whose name matches (nginx compares names case-insensitively), in any root
//   findUpstreamsFor(ws, name, root)  those of `root` when it has any, else findUpstreams (how a pass resolves)
//   upstreamKey(name)         the comparison form: template actions normalised, the rest lower-cased
//
// `servers`, `keepalive` and `balancers` come from the block's expanded statements, in nginx order, so a rule can
// compare positions (a balancer after `keepalive` disables keepalive before 1.29.7) with statements.indexOf, and
// read each directive's template guards (guardsWithin) to tell `{{ if $.PROXY_KEEPALIVE }} keepalive ..` apart.
//
// A lookup answered from every root is recorded (lookup-record.ts): other roots' text decided it, which is what
// `--jobs` must know to tell whether workspaces analyzed apart would have answered alike.
import type { Directive } from '../model/types.js';
import type { Workspace, WorkspaceRoot } from '../model/workspace.js';
import { recordLookup } from './lookup-record.js';
import { perWorkspace } from './per-workspace.js';
import { allScopes, scopesOpenedBy, type Scope } from './scopes.js';
import { hasTemplateAction, normaliseTemplateText } from './template-text.js';

/**
 * Directives that install a load-balancing method. Before 1.29.7 one placed after `keepalive` replaces the peer
 * initialisation keepalive wrapped, silently disabling it. `sticky` is the nginx-sticky-module(-ng) directive, which
 * installs its balancer the same way (nginx Plus's `sticky` is closed source; it is treated alike, conservatively).
 */
export const BALANCER_DIRECTIVES: ReadonlySet<string> = new Set([
  'ip_hash',
  'hash',
  'least_conn',
  'random',
  'least_time',
  'ntlm',
  'sticky',
]);

export interface Upstream {
  /** The name as written (quotes removed), template actions normalised: `{{ $.APP }}-{{ $upstream_port }}`. */
  name: string;
  /** upstreamKey(name). */
  key: string;
  /** The `upstream` block directive. */
  directive: Directive;
  /** The scopes the block opens: one per place its file is included (usually one). */
  bodies: Scope[];
  /** `server` member directives, in order. */
  servers: Directive[];
  keepalive: Directive[];
  balancers: Directive[];
  /** True when the name holds a template action: it is only known once rendered. */
  templated: boolean;
}

interface UpstreamIndex {
  all: Upstream[];
  byKey: Map<string, Upstream[]>;
}


export function upstreamKey(name: string): string {
  return normaliseTemplateText(name, true);
}

function readUpstream(workspace: Workspace, directive: Directive): Upstream {
  const name = normaliseTemplateText(directive.args[0]!.value);
  const bodies = [...scopesOpenedBy(workspace, directive)];
  const statements = bodies[0]?.statements ?? [];
  return {
    name,
    key: upstreamKey(name),
    directive,
    bodies,
    servers: statements.filter((statement) => statement.name === 'server'),
    keepalive: statements.filter((statement) => statement.name === 'keepalive'),
    balancers: statements.filter((statement) => BALANCER_DIRECTIVES.has(statement.name)),
    templated: hasTemplateAction(directive.args[0]!.raw),
  };
}

function buildIndex(workspace: Workspace): UpstreamIndex {
  const index: UpstreamIndex = { all: [], byKey: new Map() };
  const seen = new Set<Directive>();
  // Indexed loops: every statement of the run is read here, before V8 has optimized it (for-of allocates then).
  const scopes = allScopes(workspace);
  for (let s = 0; s < scopes.length; s++) {
    const scope = scopes[s]!;
    if (scope.context !== 'http') continue;
    const statements = scope.statements;
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i]!;
      if (statement.name !== 'upstream' || !statement.blockSpan || statement.args.length === 0) continue;
      if (seen.has(statement)) continue;
      seen.add(statement);
      const upstream = readUpstream(workspace, statement);
      index.all.push(upstream);
      const named = index.byKey.get(upstream.key);
      if (named) named.push(upstream);
      else index.byKey.set(upstream.key, [upstream]);
    }
  }
  return index;
}

const indexOf = perWorkspace(buildIndex);

export function upstreams(workspace: Workspace): readonly Upstream[] {
  return indexOf(workspace).all;
}

const NONE: readonly Upstream[] = [];

export function findUpstreams(workspace: Workspace, name: string): readonly Upstream[] {
  const key = upstreamKey(name);
  recordLookup(workspace, 'upstream', key);
  return indexOf(workspace).byKey.get(key) ?? NONE;
}

/**
 * Upstreams named `name` under `root`, failing those every root's. Only the fallback depends on other roots, so only
 * it is recorded: a fleet whose every site defines its own `upstream app` stays independent.
 */
export function findUpstreamsFor(workspace: Workspace, name: string, root: WorkspaceRoot): readonly Upstream[] {
  const named = indexOf(workspace).byKey.get(upstreamKey(name)) ?? NONE;
  const own = named.filter((upstream) => upstream.bodies.some((body) => body.root === root));
  return own.length > 0 ? own : findUpstreams(workspace, name);
}
