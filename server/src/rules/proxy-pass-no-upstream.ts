// `proxy-pass-no-upstream`: proxy_pass to a literal address: nginx never keeps those connections alive.
//
// `proxy_pass http://127.0.0.1:3000;` (or a host name, or `unix:/run/app.sock`) with no upstream{} of that name makes
// nginx create an implicit upstream, which has no keepalive cache and cannot be given one: every request opens a new
// connection, whatever the version and the headers. Only an upstream{} block can keep connections.
//
// Reported at the proxy_pass directive when its resolution (passes.ts) is `implicit`: an http/https target whose
// host and port, or socket, are literal, and no upstream{} of that name exists anywhere in the include graph. Not
// for targets with nginx variables in the host, port or socket, or template actions (not guessed), and not for
// `host:port` where an upstream{} is named `host` (nginx rejects that configuration itself: "upstream may not have
// port", which the `directive` rule reports). Variables after a literal host (`https://fonts.gstatic.com/s/$file`,
// `http://storage:10000$request_uri`) are reported alike: nginx resolves such a host per request (a "run-time"
// target) and never pools it either. So is an envsubst placeholder in the address (`http://${BACKEND_HOST}:8080`,
// filled in at container start: a literal address to nginx), with the fix withheld (its upstream would have to be
// written in template text).
// Not reported in a WebSocket-only location (analysis/websocket-only.ts: a literal `Connection upgrade`, HTTP/1.1, an
// Upgrade header, and a path such as `/ws` or a forced `Upgrade websocket`): nginx never caches an upgraded
// connection, so keepalive gains nothing there. A literal `upgrade` anywhere else (`location /` with the copy-pasted
// WebSocket block) is reported: every ordinary request opens a connection.
//
// Fix, all in one:
// - the upstream: an existing one holding exactly that one server, read by nginx before the pass's server, is
//   reused; otherwise `upstream backend_<address> { server <address>; keepalive N; }` is inserted at http level
//   (implicit-upstream.ts);
// - the pass becomes `proxy_pass <scheme>://<name><uri>;` (scheme and URI part kept);
// - Host, the default proxy_redirect and the TLS name the literal address implied are kept (target-identity.ts);
// - HTTP/1.1 and a cleared Connection for the pass (proxy-reuse.ts), so the new upstream's keepalive is effective;
//   a literal `Connection upgrade` becomes the upgrade map's variable, as connection-upgrade-literal's fix does
//   (fixes/upgrade-literal.ts; copied as such where the set is copied down: target-identity.ts).
// A run-time target keeps being resolved at run time: its upstream gets `zone` and `server <address> resolve`
// (implicit-upstream.ts), and the fix is unsafe (the name is then resolved by the upstream group, as its TTL says,
// rather than per request). That is only offered where the target nginx has `resolve` (1.27.3+) and a `resolver`
// applies at the pass; one on a server or location level is copied into the upstream, which only inherits http's.
//
// The fix is complete or withheld (decided in detect(), from the facts): after it the pass speaks HTTP/1.1 (or the
// target's default does), its Connection is cleared, and Host, the default proxy_redirect and the TLS name are kept.
// Whatever prevents one of those withholds the fix with a reason the user can act on: an include that could not
// be read (named, with --path-map when it lies outside the checked paths), a syntax error, a file checked without
// its http level or location, a second proxy_pass in the location, a bare name like `http://backend` (most likely
// an upstream{} in a file that was not checked: replacing it with a server nginx must resolve by DNS would break
// the configuration), a snippet whose context is unknown (fixes/placement.ts).
import { isMisread, isMisreadLevel } from '../analysis/misread.js';
import type { Pass } from '../analysis/passes.js';
import { passes } from '../analysis/passes.js';
import { outsideHttp } from '../analysis/scopes.js';
import { findUpstreamsFor } from '../analysis/upstreams.js';
import { lookupDirective } from '../analysis/effective-lookup.js';
import { effectiveProxyHeaders, inheritanceChain } from '../analysis/inheritance.js';
import { connectionState, forwardsUpgrade, httpVersionState } from '../analysis/proxy-state.js';
import { upgradeForEveryRequest, websocketOnly } from '../analysis/websocket-only.js';
import { upgradeLiteralEdits } from '../fixes/upgrade-literal.js';
import { formatVersion, hasModernKeepaliveDefaults, targetAtLeast, type NginxVersion } from '../analysis/versions.js';
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
import { hiddenReason, identityPlan, identityWithheld, targetIdentityEdits } from '../fixes/target-identity.js';
import { upgradeMapRefusal } from '../fixes/connection-map.js';
import { passHome } from '../fixes/pass-home.js';
import { NoFix, refusal } from '../fixes/placement.js';
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';
import { shortened } from '../util/shortened.js';

/** First nginx with `server ... resolve` in an open-source upstream{} (it needs a `zone`). */
export const UPSTREAM_RESOLVE_VERSION: NginxVersion = [1, 27, 3];

const USE_UPSTREAM = 'use an upstream{} with keepalive';

function describe(target: ImplicitTarget): string {
  return target.socket ? `socket "${shortened(target.address)}"` : `"${shortened(target.proxyHost)}"`;
}

/** The detail's sentence for a run-time target (variables in the URL). */
function runtimeDetail(target: ImplicitTarget): string {
  if (!target.runtime) return '';
  return (
    ' The URL has variables, so nginx resolves the host per request (with "resolver"); an upstream{} with "zone" and ' +
    `"server ${target.address} resolve;" (nginx ${formatVersion(UPSTREAM_RESOLVE_VERSION)}+) keeps resolving it.`
  );
}

export interface ProxyPassNoUpstreamState extends RuleState {
  pass: Pass;
  target: ImplicitTarget;
  /** For a run-time target: the `resolver` line the new upstream needs (none when http's applies). */
  resolverLine?: string;
}

function fixFor({ workspace, options }: RuleContext, state: ProxyPassNoUpstreamState): Fix | undefined {
  const { pass, target } = state;
  const existing = reusableUpstream(workspace, pass, target);
  const name = existing?.name ?? upstreamName(workspace, target);
  const insert = existing ? undefined : insertUpstreamEdit(pass, name, target, options.keepaliveConnections, state.resolverLine);
  if (!existing && (!insert || insert instanceof NoFix)) return undefined;
  const identity = targetIdentityEdits(workspace, pass, target, options);
  if (!identity) return undefined;
  // A literal `Connection upgrade` the location keeps (not copied down with the set) becomes the map's variable.
  const literal = identity.setsConnection ? undefined : upgradeForEveryRequest(workspace, pass.scope, options);
  const upgrade = literal && upgradeLiteralEdits(workspace, literal.header, literal.addsUpgrade, options);
  if (literal && !upgrade) return undefined;
  const version = identity.setsConnection ? http11Edits(workspace, pass, options) : proxyReuseEdits(workspace, pass, options);
  const reuse = [...version, ...(upgrade?.edits ?? [])];
  const edits: TextEdit[] = [...(insert && !(insert instanceof NoFix) ? [insert] : []), rewritePassEdit(pass, name, target), ...reuse, ...identity.edits];
  try {
    const resolving = target.runtime ? `, resolving "${shortened(target.host ?? '')}" at run time` : '';
    // Every place it edits: the upstream, the pass, and the location's lines that keep what the address implied.
    const location = [reuse.length > 0 ? 'HTTP/1.1 and Connection' : '', identity.edits.length > 0 ? 'Host/redirect' : '']
      .filter((part) => part !== '')
      .join(', ');
    const here = location === '' ? '' : `; sets ${location} in this location`;
    const title = existing ? `Proxy to upstream "${name}"${here}` : `Extract upstream "${name}" with keepalive${resolving}${here}`;
    return { title, edits: mergeEdits(edits) };
  } catch {
    // Edits that overlap (a whole config on one line): no fix rather than one with no defined result.
    return undefined;
  }
}

type Availability = Pick<ProxyPassNoUpstreamState, 'withheld' | 'unsafeFix' | 'resolverLine'>;

const RUNTIME = 'the target is resolved at run time; an upstream{} would resolve it once at start-up';

const ENVSUBST = 'envsubst fills in the address at container start: put it in an upstream{} with keepalive in this template';

/**
 * A run-time target's fix: an upstream that keeps resolving (nginx 1.27.3+, a resolver at the pass), unsafe; or why
 * none is offered.
 */
function runtimeAvailability({ workspace, options }: RuleContext, pass: Pass): Availability {
  if (!targetAtLeast(options, UPSTREAM_RESOLVE_VERSION)) {
    const version = formatVersion(UPSTREAM_RESOLVE_VERSION);
    return options.nginxVersion === undefined
      ? { withheld: `${RUNTIME} (nginx ${version}+ can keep resolving: set the nginx version)` }
      : { withheld: `${RUNTIME} (nginx ${version}+ can keep resolving it)` };
  }
  const resolver = lookupDirective(workspace, pass.scope, 'resolver');
  if (resolver.kind === 'unknown') return { withheld: hiddenReason(workspace, pass.scope, 'resolver')! };
  if (resolver.kind === 'none' || resolver.directives.length === 0) {
    return { withheld: 'the target is resolved at run time and no resolver applies here: add one to http{}' };
  }
  const last = resolver.directives.at(-1)!;
  if (resolver.conditional || last.args.some((argument) => argument.templated)) {
    return { withheld: 'the resolver here is templated or under a template condition' };
  }
  // An upstream{} inherits http's resolver only: one set on a server or location goes into the block.
  const resolverLine = resolver.level.context === 'http' ? undefined : `resolver ${last.args.map((a) => a.raw).join(' ')};`;
  return { unsafeFix: true, ...(resolverLine ? { resolverLine } : {}) };
}

/** Why the fix would leave the pass unable to reuse connections (HTTP/1.0, Connection: close); undefined if not. */
function reuseWithheld({ workspace, options }: RuleContext, pass: Pass, setsConnection: boolean): string | undefined {
  const modern = hasModernKeepaliveDefaults(options);
  const version = httpVersionState(workspace, pass.scope, options);
  if (version.kind === 'unknown' && !modern) {
    return hiddenReason(workspace, pass.scope, 'proxy_http_version') ?? 'proxy_http_version here is templated or conditional';
  }
  const home = passHome(pass);
  if ((version.kind === 'default-1.0' || version.kind === 'explicit-1.0') && home) {
    const refused = refusal(home.location, 'proxy_http_version');
    if (refused) return refused.why;
  }
  if (setsConnection) return undefined;
  const literal = upgradeForEveryRequest(workspace, pass.scope, options);
  const literalRefused = literal && upgradeMapRefusal(literal.header.level);
  if (literalRefused) return literalRefused instanceof NoFix ? literalRefused.why : 'no http level here can hold the upgrade map Connection needs';
  const connection = connectionState(workspace, pass.scope, options);
  if (connection.kind === 'unknown') {
    return hiddenReason(workspace, pass.scope, 'proxy_set_header') ?? 'the Connection header here is templated or conditional';
  }
  if ((connection.kind === 'unset' || connection.kind === 'close') && forwardsUpgrade(effectiveProxyHeaders(pass.scope))) {
    const level = connection.definition?.level ?? home?.location;
    const refused = level ? upgradeMapRefusal(level) : undefined;
    if (refused) return refused instanceof NoFix ? refused.why : 'no http level here can hold the upgrade map Connection needs';
  }
  return undefined;
}

/**
 * What the analysis alone says about a fix: withheld, with the reason, wherever the fix could not be built or would
 * leave the pass unable to reuse connections; unsafe for a run-time target (see the header).
 */
function availability(context: RuleContext, pass: Pass, target: ImplicitTarget): Availability {
  const { workspace, options } = context;
  if (pass.target?.envsubst) return { withheld: ENVSUBST };
  if (looksLikeUpstreamName(pass)) {
    return { withheld: `"${shortened(target.host ?? '')}" may be an upstream{} in a file not checked: check them together` };
  }
  // The fix writes an upstream{} on the http level and lines in the location: never into a block nginx stops inside.
  if (inheritanceChain(pass.scope).some(isMisreadLevel)) {
    return { withheld: 'a block around this pass holds a syntax error, where nginx stops reading: fix that first' };
  }
  const runtime = target.runtime ? runtimeAvailability(context, pass) : {};
  if (runtime.withheld !== undefined) return runtime;
  if (!reusableUpstream(workspace, pass, target)) {
    const spot = upstreamSpot(pass);
    if (spot instanceof NoFix) return { withheld: spot.why };
    if (!spot) return { withheld: 'no http{} level around this pass: check this file with the one that includes it' };
  }
  // The structure first (a location, one pass, a header set that can be copied), then reuse, then identity lines.
  const plan = identityPlan(workspace, pass, options);
  const reuse = plan && reuseWithheld(context, pass, plan.headers.kind === 'copy');
  const why = reuse ?? identityWithheld(workspace, pass, target, options);
  return why !== undefined ? { withheld: why } : runtime;
}

function isHttpPass(pass: Pass): boolean {
  // A pass read past a syntax error is the grammar's guess: nginx never reads it (analysis/misread.ts).
  return pass.name === 'proxy_pass' && pass.resolution.kind === 'implicit' && !outsideHttp(pass.scope) && !isMisread(pass.directive);
}

export const proxyPassNoUpstreamRule: Rule<ProxyPassNoUpstreamState> = {
  meta: {
    id: 'proxy-pass-no-upstream',
    description: 'proxy_pass to a literal address: nginx never keeps those connections alive.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect(context) {
    const states: ProxyPassNoUpstreamState[] = [];
    for (const pass of passes(context.workspace)) {
      if (!isHttpPass(pass)) continue;
      const target = implicitTarget(pass);
      if (!target) continue;
      // Own root first: only a name the root lacks is a cross-root lookup (analysis/lookup-record.ts).
      if (pass.target?.host && findUpstreamsFor(context.workspace, pass.target.host, pass.scope.root).length > 0) continue;
      // A WebSocket-only location: every request is upgraded, and nginx never caches an upgraded connection.
      if (websocketOnly(context.workspace, pass.scope, context.options)) continue;
      const file = pass.directive.file.path;
      states.push({ file, span: pass.directive.span, ...availability(context, pass, target), pass, target });
    }
    return states;
  },
  message({ target }, { options }) {
    return {
      headline: `proxy_pass to a ${target.socket ? 'socket' : 'literal address'} opens a connection per request: ${USE_UPSTREAM}`,
      detail:
        `Proxying to ${describe(target)}: a literal address makes nginx create an implicit upstream, which has no ` +
        `connection cache and cannot be given one. An upstream{} holding the address with "keepalive ${options.keepaliveConnections};" (plus HTTP/1.1 and a ` +
        'cleared Connection header at the pass) lets nginx reuse connections.' +
        runtimeDetail(target),
    };
  },
  fix(state, context) {
    return fixFor(context, state);
  },
};
