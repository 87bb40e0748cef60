// Includes whose files the checker cannot read because their path is only known when a template is rendered or at
// run time (`include {{ $.DOKKU_ROOT }}/{{ $.APP }}/nginx.conf.d/*.conf;`), sitting in a server that proxies to an
// upstream{}: the locations in those files may proxy to the same upstreams, and would need HTTP/1.1 and a cleared
// Connection header too once the upstream keeps connections. The `include` rule says so (information), before and
// after any fix, so a pass the checker could not see is never silently left behind.
//
//   uncheckedPassIncludes(ws)   each such include once, with the upstreams its server proxies to
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { passes } from './passes.js';
import { perWorkspace } from './per-workspace.js';
import { allScopes, unfollowedIncludes, type Scope } from './scopes.js';

export interface UncheckedInclude {
  include: Directive;
  /** Upstream names the include's server proxies to (in the checked files), sorted. */
  upstreams: string[];
}

function serverOf(scope: Scope): Scope | undefined {
  for (let level: Scope | undefined = scope; level; level = level.parent) if (level.context === 'server') return level;
  return undefined;
}

function collect(workspace: Workspace): UncheckedInclude[] {
  // Each pass is walked up to its server once: includes then look their server up (no pass list per include).
  const upstreamsByServer = new Map<Scope, Set<string>>();
  for (const pass of passes(workspace)) {
    const server = serverOf(pass.scope);
    if (!server || pass.resolution.kind !== 'upstream') continue;
    let names = upstreamsByServer.get(server);
    if (!names) upstreamsByServer.set(server, (names = new Set()));
    for (const upstream of pass.resolution.upstreams) names.add(upstream.name);
  }
  const found = new Map<Directive, UncheckedInclude>();
  for (const scope of allScopes(workspace)) {
    if (scope.context !== 'server' && scope.context !== 'location') continue;
    const names = upstreamsByServer.get(serverOf(scope)!);
    if (!names) continue;
    for (const include of unfollowedIncludes(scope)) {
      const path = include.args[0];
      if (!path || found.has(include) || !(path.templated || path.variables.length > 0)) continue;
      found.set(include, { include, upstreams: [...names].sort() });
    }
  }
  return [...found.values()];
}

export const uncheckedPassIncludes: (workspace: Workspace) => UncheckedInclude[] = perWorkspace(collect);
