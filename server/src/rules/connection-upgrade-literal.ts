// `connection-upgrade-literal`: `proxy_set_header Connection upgrade;` on a proxy_pass to an upstream that keeps
// connections. The WebSocket recipe without a map: every request, an ordinary GET too, asks the upstream to upgrade
// the connection. An upstream that takes the hint answers `101` or closes, one that ignores it still sees a
// connection nginx wants to keep marked for upgrade, and an upgraded connection is never cached by nginx. The upgrade
// map sends `Connection: upgrade` only when the client asked to upgrade, and nothing otherwise.
//
// Reported on the Connection line (once, whatever number of passes inherit it), when the effective Connection header
// of a proxy_pass to a keepalive upstream (analysis/keepalive-passes.ts) is the literal `upgrade` (any case, quoted
// or not, one definition, not under a template guard: analysis/proxy-state.ts literalUpgrade), except in a
// WebSocket-only location (analysis/websocket-only.ts: HTTP/1.1, an Upgrade header, and a path such as `/ws` or a
// forced `Upgrade websocket`), where every request is a handshake and the literal is what the map would send. A
// literal address with that header is proxy-pass-no-upstream's (its fix adds the map too), not this rule's.
//
// Fix: the value becomes the upgrade map's variable (fixes/connection-map.ts ensureUpgradeMap: reused or inserted),
// and `proxy_set_header Upgrade $http_upgrade;` goes right before the Connection line when the set has no Upgrade
// header (without it the map's `upgrade` would reach the upstream with nothing to upgrade to; with it, what the
// upstream sees for a WebSocket handshake is unchanged). An Upgrade header with another value is left as written.
// No fix where no http level can hold a map (a location snippet checked alone), and none, with the reason, where the
// only http level is the top of a snippet whose context is unknown (fixes/placement.ts).
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import type { ProxyHeader } from '../analysis/inheritance.js';
import { upgradeForEveryRequest } from '../analysis/websocket-only.js';
import type { Pass } from '../analysis/passes.js';
import { upgradeMapRefusal } from '../fixes/connection-map.js';
import { upgradeLiteralEdits } from '../fixes/upgrade-literal.js';
import { NoFix } from '../fixes/placement.js';
import type { Directive } from '../model/types.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';

export interface ConnectionUpgradeLiteralState extends RuleState {
  /** The effective `Connection upgrade` header (its level is where the set is defined). */
  header: ProxyHeader;
  /** The first pass to a keepalive upstream that sends it (named in the message). */
  pass: Pass;
  /** The set has no Upgrade header: the fix adds `Upgrade $http_upgrade`. */
  addsUpgrade: boolean;
}

function availability(header: ProxyHeader): Pick<RuleState, 'withheld' | 'noFix'> {
  const refused = upgradeMapRefusal(header.level);
  if (!refused) return {};
  return refused instanceof NoFix ? { withheld: refused.why } : { noFix: true };
}

export const connectionUpgradeLiteralRule: Rule<ConnectionUpgradeLiteralState> = {
  meta: {
    id: 'connection-upgrade-literal',
    description: 'proxy_set_header Connection upgrade to a keepalive upstream asks every request, not only WebSocket, to upgrade.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const found = new Map<Directive, ConnectionUpgradeLiteralState>();
    for (const pass of keepalivePasses(workspace, 'proxy_pass', options)) {
      const literal = upgradeForEveryRequest(workspace, pass.scope, options);
      if (!literal || found.has(literal.header.directive)) continue;
      const { header, addsUpgrade } = literal;
      const { directive } = header;
      found.set(directive, { file: directive.file.path, span: directive.span, header, pass, addsUpgrade, ...availability(header) });
    }
    return [...found.values()];
  },
  message({ pass }) {
    return {
      headline: 'Connection "upgrade" is sent on every request to a keepalive upstream: use the upgrade map',
      detail:
        `proxy_pass to ${upstreamLabel(pass)}: a literal "Connection: upgrade" asks it to upgrade ordinary requests too, on connections nginx wants to ` +
        "keep. map $http_upgrade $connection_upgrade { default upgrade; '' ''; } with \"proxy_set_header Connection " +
        '$connection_upgrade;" (and "Upgrade $http_upgrade") sends it only for WebSocket handshakes.',
    };
  },
  fix({ header, addsUpgrade }, { workspace, options }) {
    const replaced = upgradeLiteralEdits(workspace, header, addsUpgrade, options);
    if (!replaced) return undefined;
    const upgrade = addsUpgrade ? ' and forward Upgrade' : '';
    return { title: `Use ${replaced.variable} (the upgrade map) instead of a literal "upgrade"${upgrade}`, edits: replaced.edits };
  },
};
