// A pass to `name:port` where an upstream{} is called `name`: nginx refuses to start ("upstream "backend" may not have
// port 8000", at the pass's line whichever of the two it reads first; ngx_http_upstream_add). The upstream is looked
// up as the pass resolves a bare name (passes.ts, findUpstreamsFor): its own root's (the main file and its includes,
// which nginx reads together), failing those any root's (site files checked apart, which share one http{} on the
// server), so a folder, the main file that includes both, and the language server all answer alike, and as the
// keepalive rules do, which take the name for that upstream.
//
// Not a conflict: a target with an nginx variable anywhere (nginx then resolves it per request and adds no upstream
// at start-up), a template action in the host or the port, a socket, a port that is not all digits (nginx's "invalid
// port" comes first), passes under stream{} or mail{} (http upstreams only).
import type { Directive } from '../model/types.js';
import { passes, type Pass } from './passes.js';
import { outsideHttp } from './scopes.js';
import { hasNginxVariable } from './template-text.js';
import { findUpstreamsFor, type Upstream } from './upstreams.js';
import type { Workspace } from '../model/workspace.js';

export interface UpstreamPortConflict {
  pass: Pass;
  /** The host as the pass writes it (nginx's message quotes this spelling). */
  host: string;
  /** As nginx prints it: a number (`080` is 80). */
  port: number;
  upstream: Upstream;
  /** The upstream is in another root: nginx refuses only if it reads both files in one http{}. */
  otherRoot: boolean;
}

function conflictOf(workspace: Workspace, pass: Pass): UpstreamPortConflict | undefined {
  const target = pass.target;
  if (!target || target.host === undefined || target.port === undefined || target.templated) return undefined;
  if (hasNginxVariable(target.text) || !/^\d{1,5}$/.test(target.port) || outsideHttp(pass.scope)) return undefined;
  const upstream = findUpstreamsFor(workspace, target.host, pass.scope.root).find((candidate) => !candidate.templated);
  if (!upstream) return undefined;
  const otherRoot = !upstream.bodies.some((body) => body.root === pass.scope.root);
  return { pass, host: target.host, port: Number(target.port), upstream, otherRoot };
}

function isUnder(directive: Directive, block: Directive): boolean {
  for (let up: Directive | undefined = directive; up; up = up.parent) if (up === block) return true;
  return false;
}

/** Every pass nginx refuses for a port on an upstream{} name, in passes() order; with `within`, those in that block. */
export function upstreamPortConflicts(workspace: Workspace, within?: Directive): UpstreamPortConflict[] {
  const found: UpstreamPortConflict[] = [];
  for (const pass of passes(workspace)) {
    if (pass.target?.port === undefined || (within && !isUnder(pass.directive, within))) continue;
    const conflict = conflictOf(workspace, pass);
    if (conflict) found.push(conflict);
  }
  return found;
}
