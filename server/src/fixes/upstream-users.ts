// Makes every pass that uses an upstream able to reuse its connections, once the upstream keeps them: the second
// half of the upstream-keepalive fix, so one fix leaves no new finding behind.
//
//   upstreamUsersEdits(ws, passes, options)   proxy_pass: HTTP/1.1 and Connection cleared (proxy-reuse.ts);
//                                             fastcgi_pass: `fastcgi_keep_conn on` (keep-conn.ts, the very edit the
//                                             fastcgi-keep-conn rule's fix makes, so that rule then has nothing
//                                             to report); grpc/memcached: nothing needed; uwsgi/scgi: nothing
//                                             possible. Merged across passes (edit-set.ts): users sharing a
//                                             location or an inherited header set ask for the same edits.
//   connectionValueEdits(ws, passes, options) what keepalive would make wrong in a user's Connection value.
//   usersPart(ws, passes, options)            the part of the fix's title that names the users' edits.
import type { Pass } from '../analysis/passes.js';
import { closingMapsOf } from '../analysis/upgrade-maps.js';
import { upgradeForEveryRequest } from '../analysis/websocket-only.js';
import type { Directive } from '../model/types.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { Workspace } from '../model/workspace.js';
import { mergeEdits } from './edit-set.js';
import { keepConnEdits, keepConnPlan } from './keep-conn.js';
import { emptyArmFix } from './connection-map.js';
import { clearConnectionPossible, http11Plan, proxyReuseEditsForPasses } from './proxy-reuse.js';
import { upgradeLiteralEdits } from './upgrade-literal.js';

export function upstreamUsersEdits(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): TextEdit[] {
  const proxies = users.filter((pass) => pass.name === 'proxy_pass');
  const fastcgi = users.filter((pass) => pass.name === 'fastcgi_pass');
  return mergeEdits([
    ...proxyReuseEditsForPasses(workspace, proxies, options),
    ...fastcgi.flatMap((pass) => keepConnEdits(workspace, pass, options)),
  ]);
}

/** `, and HTTP/1.1 for 2 passes`: what the fix changes besides the upstream, so its title names every place. */
export function usersPart(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): string {
  const count = (predicate: (pass: Pass) => boolean) => new Set(users.filter(predicate).map((pass) => pass.scope)).size;
  // The plans the edit builders follow, not the edits: upstreamUsersEdits() builds those once already.
  const http11 = count((pass) => http11Plan(workspace, pass, options) !== undefined);
  const connection = count(
    (pass) =>
      clearConnectionPossible(workspace, pass, options) ||
      closingMapsOf(pass.scope).length > 0 ||
      (pass.protocol === 'http' && upgradeForEveryRequest(workspace, pass.scope, options) !== undefined),
  );
  const keepConn = count((pass) => keepConnPlan(workspace, pass) !== undefined);
  const places = (n: number) => `${n} location${n === 1 ? '' : 's'}`;
  const parts = [
    http11 > 0 ? `HTTP/1.1 in ${places(http11)}` : '',
    connection > 0 ? `a keepalive-safe Connection header in ${places(connection)}` : '',
    keepConn > 0 ? `fastcgi_keep_conn on in ${places(keepConn)}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? '' : `, with ${parts.join(', ')}`;
}

/**
 * What its proxy users send as Connection that keepalive would make wrong: the `'' close` arm of a map (it closes
 * every kept connection) and a literal `upgrade` outside a WebSocket-only location (ordinary requests ask to upgrade:
 * analysis/websocket-only.ts), each fixed as its own rule does.
 */
export function connectionValueEdits(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): TextEdit[] {
  const edits: TextEdit[] = [];
  const literals = new Set<Directive>();
  for (const pass of users) {
    for (const { arm } of closingMapsOf(pass.scope)) {
      const edit = emptyArmFix(arm);
      if (edit) edits.push(edit);
    }
    const literal = pass.protocol === 'http' ? upgradeForEveryRequest(workspace, pass.scope, options) : undefined;
    if (!literal || literals.has(literal.header.directive)) continue;
    literals.add(literal.header.directive);
    for (const edit of upgradeLiteralEdits(workspace, literal.header, literal.addsUpgrade, options)?.edits ?? []) edits.push(edit);
  }
  return edits;
}
