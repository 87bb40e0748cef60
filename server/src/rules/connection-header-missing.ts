// `connection-header-missing`: a proxy_pass to a keepalive upstream whose effective proxy_set_header set (nginx's
// inheritance: the nearest level defining any header wins alone) leaves Connection unset, so nginx sends its
// built-in `Connection: close` (before 1.29.7), or sets it to a literal `close` (any version). The upstream then
// closes after every response. Connection from `$http_connection` or a map variable belongs to
// connection-header-passthrough and connection-map-close. Fix: fixes/proxy-reuse.ts clearConnectionEdits.
import { connectionState, effectiveHeaderSet, forwardsUpgrade, type ConnectionState } from '../analysis/proxy-state.js';
import { clearConnectionEdits, clearConnectionPossible } from '../fixes/proxy-reuse.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, writtenAt } from '../analysis/message-parts.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';
import type { Pass } from '../analysis/passes.js';

type Reported = Extract<ConnectionState, { kind: 'unset' | 'close' }>;

function cause(state: Reported): string {
  if (state.kind === 'close') {
    return `"proxy_set_header Connection close" on ${levelLabel(state.definition.level)} (${writtenAt(state.header.directive)}) asks for it`;
  }
  const definition = state.definition;
  const source = definition
    ? `the headers in effect here are the ones set on ${levelLabel(definition.level)}, which include no Connection`
    : 'no level sets any proxy_set_header';
  return `${source}, and before nginx 1.29.7 nginx then sends "Connection: close"`;
}

/** What to do, short enough for the headline. */
function remedy(state: Reported): string {
  if (forwardsUpgrade(effectiveHeaderSet(state.definition))) return "use an upgrade map with '' ''";
  return 'set proxy_set_header Connection ""';
}

const WHERE = ' Add it where the headers in effect are set: a level that sets any proxy_set_header replaces them all.';

const WEBSOCKET =
  " The headers forward Upgrade (WebSocket), so Connection must still say upgrade when the client asks: " +
  "\"proxy_set_header Connection $connection_upgrade;\" with map $http_upgrade $connection_upgrade { default upgrade; '' ''; }.";

/**
 * Says every place the fix changes: the Connection line goes where the headers in effect are set (proxy-reuse.ts),
 * which may be a server or http level whose other locations inherit it too, and with WebSocket forwarding it is the
 * upgrade map's variable (a map may be added at http level).
 */
function fixTitle(pass: Pass, connection: Reported): string {
  const level = connection.definition?.level;
  const shared = level && level !== pass.scope && level.context !== 'location' ? ` on ${levelLabel(level)}, for every location inheriting it` : '';
  if (forwardsUpgrade(effectiveHeaderSet(connection.definition))) return `Send Connection from the upgrade map${shared}`;
  return `Clear the Connection header${shared}`;
}

export interface ConnectionHeaderMissingState extends RuleState {
  pass: Pass;
  connection: Reported;
}

export const connectionHeaderMissingRule: Rule<ConnectionHeaderMissingState> = {
  meta: {
    id: 'connection-header-missing',
    description: 'proxy_pass to a keepalive upstream sends Connection: close (header not cleared, or set to close).',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const states: ConnectionHeaderMissingState[] = [];
    for (const pass of keepalivePasses(workspace, 'proxy_pass', options)) {
      const connection = connectionState(workspace, pass.scope, options);
      if (connection.kind !== 'unset' && connection.kind !== 'close') continue;
      // Decided here, without writing the line: no place for it, or no upgrade map where WebSocket needs one.
      const noFix = clearConnectionPossible(workspace, pass, options) ? undefined : (true as const);
      states.push({ file: pass.directive.file.path, span: pass.directive.span, noFix, pass, connection });
    }
    return states;
  },
  message({ pass, connection }) {
    const upgrade = forwardsUpgrade(effectiveHeaderSet(connection.definition)) ? WEBSOCKET : '';
    return {
      headline: `proxy_pass sends "Connection: close" to a keepalive upstream: ${remedy(connection)}`,
      detail:
        `${upstreamLabel(pass, true)} has keepalive, but ${cause(connection)}. The upstream then closes the connection after every ` +
        `response and none is reused.${connection.definition ? WHERE : ''}${upgrade}`,
    };
  },
  fix({ pass, connection }, { workspace, options }) {
    const edits = clearConnectionEdits(workspace, pass, options);
    return edits.length > 0 ? { title: fixTitle(pass, connection), edits } : undefined;
  },
};
