// `proxy-set-header-inheritance`: a proxying location defines its own proxy_set_header while an enclosing level
// (outer location, server, http) defines headers it does not repeat. nginx inherits proxy_set_header only into a
// block that defines none, so those headers are silently not sent; a server-level `Connection ""` is the usual
// casualty, which brings `Connection: close` back. Reported once per block, whatever the upstream, at its first
// proxy_set_header. Fix: fixes/header-copy.ts copies the dropped headers down; unsafe when the block proxies to a
// third-party origin and the copy includes headers carrying the client's address (analysis/third-party.ts).
import { isMisreadLevel } from '../analysis/misread.js';
import { allScopes, type Scope } from '../analysis/scopes.js';
import { passes } from '../analysis/passes.js';
import { CLIENT_IDENTITY_HEADERS, thirdPartyHost } from '../analysis/third-party.js';
import type { Workspace } from '../model/workspace.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import { speaksHttp2 } from '../analysis/proxy-state.js';
import { canCopyDown, copyDownEdits, droppedHeaders, type DroppedHeaders } from '../fixes/header-copy.js';
import { holdsPass } from '../fixes/pass-home.js';
import { headerKey } from '../analysis/inheritance.js';
import { levelLabel, writtenAt } from '../analysis/message-parts.js';
import { listed, shortened } from '../util/shortened.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';
import type { ResolvedOptions } from '../util/types.js';

/**
 * Keepalive's stake in the loss: a dropped `Connection ""` means `Connection: close` before 1.29.7, except over
 * HTTP/2 (`proxy_http_version 2`), where nginx adds no Connection header on any version.
 */
function connectionNote(drop: DroppedHeaders, options: ResolvedOptions, overHttp2: boolean): string {
  const connection = drop.dropped.find((header) => headerKey(header.name) === 'connection');
  if (!connection) return '';
  if (!hasModernKeepaliveDefaults(options) && !overHttp2) {
    return '; without its Connection nginx sends "Connection: close", so upstream keepalive connections are not reused';
  }
  // From 1.29.7 nginx sends no Connection by default: losing an empty one changes nothing, any other value does.
  return connection.value?.value === '' ? '' : '; the Connection header it sets is lost with them';
}

export interface ProxySetHeaderInheritanceState extends RuleState {
  scope: Scope;
  drop: DroppedHeaders;
  /** The block proxies to someone else's server and the copy would send it the client's address: unsafe. */
  stranger?: { host: string; headers: string[] };
}

/**
 * The client-identifying headers the copy would send to a third-party origin the block proxies to (analysis/
 * third-party.ts). Repeating X-Forwarded-For to fonts.gstatic.com changes what a stranger learns about the users.
 */
function strangerOf(workspace: Workspace, scope: Scope, drop: DroppedHeaders): ProxySetHeaderInheritanceState['stranger'] {
  const headers = drop.dropped.map((header) => header.name).filter((name) => CLIENT_IDENTITY_HEADERS.has(headerKey(name)));
  if (headers.length === 0) return undefined;
  const host = passes(workspace)
    .filter((pass) => pass.scope === scope && pass.name === 'proxy_pass')
    .map(thirdPartyHost)
    .find((found) => found !== undefined);
  return host === undefined ? undefined : { host, headers };
}

function strangerNote(stranger: ProxySetHeaderInheritanceState['stranger']): string {
  if (!stranger) return '';
  return (
    ` This block proxies to ${stranger.host}, someone else's server: repeating ${stranger.headers.join(', ')} would ` +
    'send it your users\' addresses, so the fix is unsafe (--unsafe-fixes) and dropping them may be what you want.'
  );
}

export const proxySetHeaderInheritanceRule: Rule<ProxySetHeaderInheritanceState> = {
  meta: {
    id: 'proxy-set-header-inheritance',
    description: "A block's own proxy_set_header silently drops the headers set at enclosing levels.",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace }) {
    const states: ProxySetHeaderInheritanceState[] = [];
    for (const scope of allScopes(workspace)) {
      if (scope.context !== 'location' || !holdsPass(scope, 'proxy_pass')) continue;
      const drop = droppedHeaders(workspace, scope);
      // A guarded header or a level that may not take one: no copy is offered (canCopyDown).
      if (!drop) continue;
      // Either level holding or past a syntax error is the grammar's guess past where nginx stops (analysis/misread.ts).
      if (isMisreadLevel(scope) || isMisreadLevel(drop.inherited.level)) continue;
      const noFix = canCopyDown(drop) ? undefined : (true as const);
      const stranger = strangerOf(workspace, scope, drop);
      const unsafeFix = stranger ? (true as const) : undefined;
      states.push({ file: drop.anchor.file.path, span: drop.anchor.span, noFix, unsafeFix, scope, drop, stranger });
    }
    return states;
  },
  message({ scope, drop, stranger }, { workspace, options }) {
    const names = drop.dropped.map((header) => header.name);
    const one = names.length === 1;
    const source = drop.inherited.directives[0]!;
    return {
      headline: `proxy_set_header here drops the inherited ${listed(names.map((name) => shortened(name, 16)), 2)}: repeat ${one ? 'it' : 'them'} here`,
      detail:
        `This ${levelLabel(scope)} sets its own proxy_set_header, so nginx inherits none from ${levelLabel(drop.inherited.level)} ` +
        `(${writtenAt(source)}): ${names.join(', ')} ${one ? 'is' : 'are'} not sent to the upstream` +
        `${connectionNote(drop, options, speaksHttp2(workspace, scope))}.${strangerNote(stranger)}`,
    };
  },
  fix({ drop, stranger }) {
    const edits = copyDownEdits(drop);
    const title = stranger
      ? `Copy the inherited headers into this block (sends ${stranger.headers.join(', ')} to ${stranger.host})`
      : 'Copy the inherited headers into this block';
    return edits.length > 0 ? { title, edits } : undefined;
  },
};
