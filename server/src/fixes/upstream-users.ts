// Makes every pass that uses an upstream able to reuse its connections, once the upstream keeps them: the second
// half of the upstream-keepalive fix, so one fix leaves no new finding behind.
//
//   upstreamUsersEdits(ws, passes, options)   proxy_pass: HTTP/1.1 and Connection cleared (proxy-reuse.ts);
//                                             fastcgi_pass: `fastcgi_keep_conn on` (keep-conn.ts, the very edit the
//                                             fastcgi-keep-conn rule's fix makes, so that rule then has nothing
//                                             to report); grpc/memcached: nothing needed; uwsgi/scgi: nothing
//                                             possible. Merged across passes (edit-set.ts): users sharing a
//                                             location or an inherited header set ask for the same edits.
import type { Pass } from '../analysis/passes.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { Workspace } from '../model/workspace.js';
import { mergeEdits } from './edit-set.js';
import { keepConnEdits } from './keep-conn.js';
import { proxyReuseEditsForPasses } from './proxy-reuse.js';

export function upstreamUsersEdits(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): TextEdit[] {
  const proxies = users.filter((pass) => pass.name === 'proxy_pass');
  const fastcgi = users.filter((pass) => pass.name === 'fastcgi_pass');
  return mergeEdits([
    ...proxyReuseEditsForPasses(workspace, proxies, options),
    ...fastcgi.flatMap((pass) => keepConnEdits(workspace, pass, options)),
  ]);
}
