// Whether a location that sends a literal `Connection: upgrade` only carries WebSockets. There keepalive gains nothing
// (nginx never caches an upgraded connection) and the literal is what the map would send anyway, so no rule reports
// the pass or the header. Everywhere else the literal is the copy-pasted "WebSocket support" block in front of a whole
// application (and socket.io's long-polling sends ordinary requests): every ordinary request asks to upgrade, and a
// literal address opens a connection per request. The rules read this one answer:
//
//   websocketOnly(ws, scope, options)   the pass at `scope` sends the literal `upgrade` and can only be a WebSocket
//                                       location: all of
//     - HTTP/1.1 in effect (`proxy_http_version 1.1`, or no proxy_http_version on nginx >= 1.29.7): nginx upgrades
//       nothing over HTTP/1.0, so without it the location is never WebSocket-only;
//     - an Upgrade header in the effective set;
//     - something saying the location serves nothing else: the Upgrade header forced to the literal `websocket`
//       (every request is a handshake), or the innermost location's path naming WebSocket (WEBSOCKET_WORDS).
//
// The path test splits the location's pattern into words (runs of letters and digits, lower-cased): `/ws`,
// `/cable`, `= /rtcstats-ws/`, `~ /api/v[0-9]+/(users/)?websocket$`, `@api_websocket` name WebSocket; `/`, `/api`,
// `/events` do not. `socket` followed by `io` is socket.io, whose long-polling fallback sends ordinary requests: not
// WebSocket-only. A regex with alternatives (`^/(api|ws)`) counts only when every alternative names WebSocket.
// A pass outside any location (a snippet checked alone) has no path: only a forced `Upgrade websocket` says so.
import { lookupDirective } from './effective-lookup.js';
import { effectiveHeaderSet, literalUpgradeAt, type VersionOptions } from './proxy-state.js';
import type { Scope } from './scopes.js';
import { hasModernKeepaliveDefaults } from './versions.js';
import type { Workspace } from '../model/workspace.js';

/** Words of a location path that say it is a WebSocket endpoint (docs/rules/connection-upgrade-literal.md). */
export const WEBSOCKET_WORDS: ReadonlySet<string> = new Set(['ws', 'wss', 'websocket', 'websockets', 'cable', 'socket', 'sockets']);

const WORD = /[a-z0-9]+/g;

/** One alternative of a location pattern names WebSocket (socket.io excluded). */
function namesWebsocket(pattern: string): boolean {
  const words = pattern.toLowerCase().match(WORD) ?? [];
  return words.some((word, i) => WEBSOCKET_WORDS.has(word) && !(word === 'socket' && words[i + 1] === 'io'));
}

/** The innermost location's pattern names WebSocket in every alternative (see the header). */
export function websocketPath(scope: Scope): boolean {
  let level: Scope | undefined = scope;
  while (level && level.context !== 'location') level = level.parent;
  const pattern = level?.block?.args.at(-1);
  if (!pattern || pattern.templated) return false;
  return pattern.value.split('|').every(namesWebsocket);
}

/** HTTP/1.1 is what the pass speaks: explicitly, or as nginx 1.29.7+'s default. */
function speaksHttp11(workspace: Workspace, scope: Scope, options: VersionOptions): boolean {
  const lookup = lookupDirective(workspace, scope, 'proxy_http_version');
  if (lookup.kind === 'none') return hasModernKeepaliveDefaults(options);
  if (lookup.kind !== 'found' || lookup.conditional) return false;
  const value = lookup.directives.at(-1)?.args[0];
  return value !== undefined && !value.templated && value.value === '1.1';
}

export function websocketOnly(workspace: Workspace, scope: Scope, options: VersionOptions): boolean {
  if (!literalUpgradeAt(workspace, scope) || !speaksHttp11(workspace, scope, options)) return false;
  const lookup = lookupDirective(workspace, scope, 'proxy_set_header');
  const upgrade = effectiveHeaderSet(lookup.kind === 'found' ? lookup : undefined).get('upgrade');
  const value = upgrade?.value;
  if (!value) return false;
  const forced = !value.templated && value.variables.length === 0 && value.value.trim().toLowerCase() === 'websocket';
  return forced || websocketPath(scope);
}

/**
 * The literal `Connection upgrade` at `scope` when it is wrong: sent to a location that is not WebSocket-only, so every
 * ordinary request asks to upgrade (what connection-upgrade-literal reports and the fixes replace with the map).
 */
export function upgradeForEveryRequest(
  workspace: Workspace,
  scope: Scope,
  options: VersionOptions,
): ReturnType<typeof literalUpgradeAt> {
  return websocketOnly(workspace, scope, options) ? undefined : literalUpgradeAt(workspace, scope);
}
