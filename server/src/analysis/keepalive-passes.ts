// The passes whose upstream keeps idle connections: what proxy-http-version, connection-header-missing and
// fastcgi-keep-conn look at. A pass counts when it resolves to an upstream{} that has keepalive for the target
// version (analysis/keepalive-state.ts: explicit, the >= 1.29.7 default, or a template-guarded opt-in). Passes with
// nginx variables or unresolvable templates are `unresolved` and never count: the rules do not guess. A `proxy_pass`
// in `stream {}` (or mail) is a different directive of a different module: never counted, even when an http upstream
// has the same name as the stream one it really uses. Nor does a pass the grammar's recovery read past a syntax
// error (misread.ts): nginx never reads it.
//
//   keepalivePasses(ws, name, options)   the passes of directive `name` (proxy_pass, fastcgi_pass) to such upstreams
//   upstreamLabel(pass)                  `upstream "app"` for messages
import { hasKeepalive, keepaliveState } from './keepalive-state.js';
import { passes, type Pass, type PassDirectiveName } from './passes.js';
import { isMisread } from './misread.js';
import { outsideHttp } from './scopes.js';
import type { Workspace } from '../model/workspace.js';
import type { ResolvedOptions } from '../util/types.js';

function usesKeepalive(pass: Pass, options: ResolvedOptions): boolean {
  if (pass.resolution.kind !== 'upstream' || outsideHttp(pass.scope) || isMisread(pass.directive)) return false;
  return pass.resolution.upstreams.some((upstream) => hasKeepalive(keepaliveState(upstream, options)));
}

export function keepalivePasses(workspace: Workspace, name: PassDirectiveName, options: ResolvedOptions): Pass[] {
  return passes(workspace).filter((pass) => pass.name === name && usesKeepalive(pass, options));
}

/** `upstream "app"`, or `Upstream "app"` to start a sentence. */
export function upstreamLabel(pass: Pass, capital = false): string {
  const upstream = pass.resolution.kind === 'upstream' ? pass.resolution.upstreams[0] : undefined;
  const label = upstream ? `upstream "${upstream.name}"` : 'the upstream';
  return capital ? label.charAt(0).toUpperCase() + label.slice(1) : label;
}
