// The rules' own decisions, for the features that show them (the hover's ✓/✗ checklist, the upstream status): each
// rule's detect() states, computed once per workspace model and options and looked up by place. A feature never
// re-derives a verdict; it asks here whether the rule reported, and reads the analysis facts only for the wording.
//
//   ruleStates(ws, options)   the states of the keepalive rules and the directive rule, looked up by upstream, pass
//                             and directive
import type { Pass } from '../analysis/passes.js';
import type { Upstream } from '../analysis/upstreams.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import type { ResolvedOptions } from '../util/types.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';
import { connectionHeaderMissingRule, type ConnectionHeaderMissingState } from '../rules/connection-header-missing.js';
import { connectionHeaderPassthroughRule, type ConnectionHeaderPassthroughState } from '../rules/connection-header-passthrough.js';
import { connectionMapCloseRule, type ConnectionMapCloseState } from '../rules/connection-map-close.js';
import { directiveRule, type DirectiveState } from '../rules/directive.js';
import { fastcgiKeepConnRule, type FastcgiKeepConnState } from '../rules/fastcgi-keep-conn.js';
import { keepaliveOrderRule, type KeepaliveOrderState } from '../rules/keepalive-order.js';
import { proxyHttpVersionRule, type ProxyHttpVersionState } from '../rules/proxy-http-version.js';
import { upstreamKeepaliveRule, type UpstreamKeepaliveState } from '../rules/upstream-keepalive.js';

export interface RuleStates {
  upstreamKeepalive(upstream: Upstream): UpstreamKeepaliveState | undefined;
  /** The first keepalive of the upstream that a later balancer replaces. */
  keepaliveOrder(upstream: Upstream): KeepaliveOrderState | undefined;
  proxyHttpVersion(pass: Pass): ProxyHttpVersionState | undefined;
  connectionHeaderMissing(pass: Pass): ConnectionHeaderMissingState | undefined;
  /** The `Connection $http_connection` line `header` is, when the rule reports it. */
  connectionHeaderPassthrough(header: Directive): ConnectionHeaderPassthroughState | undefined;
  /** The `'' close` arm reported for a map that is this pass's Connection header. */
  connectionMapClose(pass: Pass): ConnectionMapCloseState | undefined;
  fastcgiKeepConn(pass: Pass): FastcgiKeepConnState | undefined;
  /** What the directive rule reports at this directive (unknown, not allowed here, arguments, ...), if anything. */
  directive(directive: Directive): DirectiveState | undefined;
}

/** Where the directive rule reports: the directive's name, in its file. */
const placeOf = (file: string, startOffset: number) => `${file}\0${startOffset}`;

function indexBy<S extends RuleState, K>(
  rule: Rule<S>,
  workspace: Workspace,
  options: ResolvedOptions,
  keysOf: (state: S) => readonly K[],
): (key: K) => S | undefined {
  let index: Map<K, S> | undefined;
  return (key) => {
    if (!index) {
      index = new Map();
      for (const state of rule.detect({ workspace, options })) {
        for (const k of keysOf(state)) if (!index.has(k)) index.set(k, state);
      }
    }
    return index.get(key);
  };
}

function build(workspace: Workspace, options: ResolvedOptions): RuleStates {
  return {
    upstreamKeepalive: indexBy(upstreamKeepaliveRule, workspace, options, (state) => [state.upstream]),
    keepaliveOrder: indexBy(keepaliveOrderRule, workspace, options, (state) => [state.upstream]),
    proxyHttpVersion: indexBy(proxyHttpVersionRule, workspace, options, (state) => [state.pass]),
    connectionHeaderMissing: indexBy(connectionHeaderMissingRule, workspace, options, (state) => [state.pass]),
    connectionHeaderPassthrough: indexBy(connectionHeaderPassthroughRule, workspace, options, (state) => [state.directive]),
    connectionMapClose: indexBy(connectionMapCloseRule, workspace, options, (state) => state.passes),
    fastcgiKeepConn: indexBy(fastcgiKeepConnRule, workspace, options, (state) => [state.pass]),
    directive: ((byPlace) => (directive: Directive) => byPlace(placeOf(directive.file.path, directive.nameSpan.startOffset)))(
      // A value problem is shown on the word nginx refuses; its hover is the directive's (`at`, its name).
      indexBy(directiveRule, workspace, options, (state) => [placeOf(state.file, state.at.startOffset), placeOf(state.file, state.span.startOffset)]),
    ),
  };
}

// The model is immutable and a hover asks many times per request (every user of an upstream): one set per options.
const cache = new WeakMap<Workspace, Map<string, RuleStates>>();

export function ruleStates(workspace: Workspace, options: ResolvedOptions): RuleStates {
  let byOptions = cache.get(workspace);
  if (!byOptions) cache.set(workspace, (byOptions = new Map()));
  const key = JSON.stringify(options);
  let states = byOptions.get(key);
  if (!states) byOptions.set(key, (states = build(workspace, options)));
  return states;
}
