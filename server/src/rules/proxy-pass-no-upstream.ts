// `proxy-pass-no-upstream`: proxy_pass to a literal address: nginx never keeps those connections alive.
//
// `proxy_pass http://127.0.0.1:3000;` (or a host name, or `unix:/run/app.sock`) with no upstream{} of that name makes
// nginx create an implicit upstream, which has no keepalive cache and cannot be given one: every request opens a new
// connection, whatever the version and the headers. Only an upstream{} block can keep connections.
//
// Reported at the proxy_pass directive when its resolution (passes.ts) is `implicit`: an http/https target whose
// host and port, or socket, are literal, and no upstream{} of that name exists anywhere in the include graph. Not
// for targets with nginx variables or template actions (not guessed), and not for `host:port` where an upstream{}
// is named `host` (nginx rejects that configuration itself: "upstream may not have port").
//
// Fix, all in one:
// - the upstream: an existing one holding exactly that one server, read by nginx before the pass's server, is
//   reused; otherwise `upstream backend_<address> { server <address>; keepalive N; }` is inserted at http level
//   (implicit-upstream.ts);
// - the pass becomes `proxy_pass <scheme>://<name><uri>;` (scheme and URI part kept);
// - Host, the default proxy_redirect and the TLS name the literal address implied are kept (target-identity.ts);
// - HTTP/1.1 and a cleared Connection for the pass (proxy-reuse.ts), so the new upstream's keepalive is effective.
// No fix when the pass is not inside http (a snippet checked alone: nowhere to put an upstream), when its location
// also holds another proxy_pass, when its header set cannot be copied faithfully, or when the target is a bare name
// like `http://backend` (most likely an upstream{} in a file that was not checked: replacing it with a server
// nginx must resolve by DNS would break the configuration). Where the http level is only a guess (a snippet whose
// context is unknown, fixes/placement.ts) the message says that is why there is no fix.
import type { Pass } from '../analysis/passes.js';
import { passes } from '../analysis/passes.js';
import { outsideHttp } from '../analysis/scopes.js';
import { findUpstreamsFor } from '../analysis/upstreams.js';
import type { Fix, TextEdit } from '../util/types.js';
import { mergeEdits } from '../fixes/edit-set.js';
import {
  implicitTarget,
  insertUpstreamEdit,
  looksLikeUpstreamName,
  reusableUpstream,
  rewritePassEdit,
  upstreamName,
  upstreamSpot,
  type ImplicitTarget,
} from '../fixes/implicit-upstream.js';
import { http11Edits, proxyReuseEdits } from '../fixes/proxy-reuse.js';
import { identityPlan, targetIdentityEdits } from '../fixes/target-identity.js';
import { NoFix } from '../fixes/placement.js';
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';

function describe(target: ImplicitTarget): string {
  return target.socket ? `the socket "${target.address}"` : `the address "${target.proxyHost}"`;
}

export interface ProxyPassNoUpstreamState extends RuleState {
  pass: Pass;
  target: ImplicitTarget;
}

function fixFor({ workspace, options }: RuleContext, pass: Pass, target: ImplicitTarget): Fix | undefined {
  const existing = reusableUpstream(workspace, pass, target);
  const name = existing?.name ?? upstreamName(workspace, target);
  const insert = existing ? undefined : insertUpstreamEdit(pass, name, target, options.keepaliveConnections);
  if (!existing && (!insert || insert instanceof NoFix)) return undefined;
  const identity = targetIdentityEdits(workspace, pass, target, options);
  if (!identity) return undefined;
  const reuse = identity.setsConnection ? http11Edits(workspace, pass, options) : proxyReuseEdits(workspace, pass, options);
  const edits: TextEdit[] = [...(insert && !(insert instanceof NoFix) ? [insert] : []), rewritePassEdit(pass, name, target), ...reuse, ...identity.edits];
  try {
    const title = existing ? `Proxy to upstream "${name}"` : `Extract upstream "${name}" with keepalive`;
    return { title, edits: mergeEdits(edits) };
  } catch {
    // Edits that overlap (a whole config on one line): no fix rather than one with no defined result.
    return undefined;
  }
}

/**
 * What the analysis alone says about a fix: none for a bare name (`http://backend`, most likely an upstream{} in a
 * file that was not checked), and withheld with the reason where a new upstream{} may not be inserted.
 */
function availability(context: RuleContext, pass: Pass, target: ImplicitTarget): Pick<RuleState, 'withheld' | 'noFix'> {
  const { workspace, options } = context;
  if (looksLikeUpstreamName(pass)) return { noFix: true };
  if (!reusableUpstream(workspace, pass, target)) {
    const spot = upstreamSpot(pass);
    if (spot instanceof NoFix) return { withheld: spot.why };
    if (!spot) return { noFix: true };
  }
  return identityPlan(workspace, pass, options) ? {} : { noFix: true };
}

function isHttpPass(pass: Pass): boolean {
  return pass.name === 'proxy_pass' && pass.resolution.kind === 'implicit' && !outsideHttp(pass.scope);
}

export const proxyPassNoUpstreamRule: Rule<ProxyPassNoUpstreamState> = {
  meta: {
    id: 'proxy-pass-no-upstream',
    description: 'proxy_pass to a literal address: nginx never keeps those connections alive.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  detect(context) {
    const states: ProxyPassNoUpstreamState[] = [];
    for (const pass of passes(context.workspace)) {
      if (!isHttpPass(pass)) continue;
      const target = implicitTarget(pass);
      if (!target) continue;
      // Own root first: only a name the root lacks is a cross-root lookup (analysis/lookup-record.ts).
      if (pass.target?.host && findUpstreamsFor(context.workspace, pass.target.host, pass.scope.root).length > 0) continue;
      const file = pass.directive.file.path;
      states.push({ file, span: pass.directive.span, ...availability(context, pass, target), pass, target });
    }
    return states;
  },
  message({ target }, { options }) {
    return {
      headline:
        `proxy_pass to ${describe(target)} without an upstream{}: nginx makes an implicit upstream that never keeps ` +
        `connections, so every request opens a new one (proxy to an upstream{} with "keepalive ${options.keepaliveConnections};")`,
    };
  },
  fix({ pass, target }, context) {
    return fixFor(context, pass, target);
  },
};
