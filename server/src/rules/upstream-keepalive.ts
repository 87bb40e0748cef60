// `upstream-keepalive`: An http upstream {} has no keepalive, so every proxied request opens a new connection.
//
// Without `keepalive N` (before 1.29.7) the upstream module has no connection cache: every request to the group
// opens a TCP (and TLS) connection and closes it afterwards. From 1.29.7 an upstream{} block gets `keepalive 32` by
// default (`keepalive 32 local`), so only an explicit `keepalive 0` (which disables it) is reported there: as
// information naming the cost, since some deployments turn reuse off on purpose, and with an unsafe fix (it
// reverses a written choice, and the upstream then sees kept connections it was configured not to get).
//
// Reported at the upstream's name argument (the `upstream` line), once per block, when the block is used by a
// proxy_pass, fastcgi_pass, grpc_pass or memcached_pass, or by no pass at all (it may be used from a file that was
// not checked). Not when every user is uwsgi_pass/scgi_pass (those protocols cannot keep connections),
// tunnel_pass (a CONNECT tunnel's connection is never cached, nginx 1.31.0+) or a WebSocket-only location
// (analysis/websocket-only.ts: nginx never caches an upgraded connection), never for
// `stream {}` upstreams (upstreams.ts leaves them out), and not when the block may hold more than the model sees
// (keepalive-state.ts: `unknown`). A keepalive that exists only under a template `{{ if }}` is information:
// keepalive is off unless someone sets it (Dokku's `PROXY_KEEPALIVE`).
//
// Fix (one per finding, all edits together):
// - none: `keepalive N;` (N = keepaliveConnections) after the last server or balancer directive of the block, past
//   the `{{ end }}` of a template range around the servers (upstream-members.ts);
// - `keepalive 0` (>= 1.29.7): the 0 becomes N (unsafe: only with --unsafe-fixes);
// - the Dokku opt-in in a sigil: made default-on, `keepalive {{ $.PROXY_KEEPALIVE | default "N" }};`
//   (template-opt-in.ts); other guarded shapes get no fix;
// - none either where `keepalive` may not be inserted (fixes/placement.ts), nor when no pass in the checked files
//   uses the upstream (keepalive alone would not make its passes reuse anything): the finding says why;
// - plus, in every case, what each user needs to reuse the connections: HTTP/1.1 and a cleared Connection for
//   proxy_pass, `fastcgi_keep_conn on` for fastcgi_pass (upstream-users.ts), and the `'' ''` arm for a map whose
//   `'' close` is a user's Connection header, so the fix leaves no new finding. Its title names those places.
import { isMisread } from '../analysis/misread.js';
import { keepaliveState, type KeepaliveState } from '../analysis/keepalive-state.js';
import { usersOf, type Pass } from '../analysis/passes.js';
import { replaceSpan } from '../fixes/edits.js';
import { upstreams, type Upstream } from '../analysis/upstreams.js';
import { outsideHttp } from '../analysis/scopes.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { TemplateGuard } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { mergeEdits } from '../fixes/edit-set.js';
import { defaultOnEdits, defaultOnText, settingName } from '../fixes/template-opt-in.js';
import { formatControl } from '../model/template-guards.js';
import { refusal } from '../fixes/placement.js';
import { insertAfterMembers } from '../fixes/upstream-members.js';
import { connectionValueEdits, upstreamUsersEdits, usersPart } from '../fixes/upstream-users.js';
import { http11Plan } from '../fixes/proxy-reuse.js';
import { websocketOnly } from '../analysis/websocket-only.js';
import { keepConnPlan } from '../fixes/keep-conn.js';
import { connectionState, httpVersionState, keepConnState } from '../analysis/proxy-state.js';
import { writtenAt } from '../analysis/message-parts.js';
import { hiddenReason } from '../fixes/target-identity.js';
import type { Rule, RuleMessage, RuleState } from '../analysis/rule-api.js';
import { shortened } from '../util/shortened.js';

/** uwsgi and scgi have no keepalive; a CONNECT tunnel (tunnel_pass, 1.31.0+) is never put back in the cache. */
const NO_KEEPALIVE_PROTOCOLS = new Set(['uwsgi', 'scgi', 'tunnel']);

/**
 * Only uwsgi/scgi/tunnel passes and WebSocket-only locations use it: keepalive could not help them (nginx never
 * caches a tunnel's or an upgraded connection). No users at all is not "only".
 */
function usedOnlyWithoutKeepalive(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): boolean {
  const without = (pass: Pass) =>
    NO_KEEPALIVE_PROTOCOLS.has(pass.protocol) || (pass.name === 'proxy_pass' && websocketOnly(workspace, pass.scope, options));
  return users.length > 0 && users.every(without);
}

/** The guard that makes the keepalive conditional inside the block: `{{ if $.PROXY_KEEPALIVE }}`. */
function guardOf(state: Extract<KeepaliveState, { kind: 'guarded' }>, upstream: Upstream): TemplateGuard | undefined {
  const block = upstream.directive;
  return state.directives[0]!.guards.find((guard) => block.file !== state.directives[0]!.file || !block.guards.includes(guard));
}

/** The template setting or condition the keepalive waits for, in words: `$.PROXY_KEEPALIVE is set`. */
function waitsFor(state: Extract<KeepaliveState, { kind: 'guarded' }>, upstream: Upstream): { condition: string; unless: string } {
  const guard = guardOf(state, upstream);
  const pipeline = guard?.control.pipeline ?? '';
  const condition = !guard
    ? 'a template condition'
    : guard.inElse
      ? `a template branch of ${formatControl(guard.control, pipeline)}`
      : formatControl(guard.control, pipeline);
  // `$.PROXY_KEEPALIVE` (Go) or `nginx_keepalive` (Jinja) reads as the setting's name; anything else is described.
  const setting = guard && !guard.inElse ? settingName(guard.control) : undefined;
  return { condition, unless: setting ? `${setting} is set` : 'the template renders it' };
}

function guardedSuggestion(state: Extract<KeepaliveState, { kind: 'guarded' }>, upstream: Upstream, count: number): string {
  const guard = guardOf(state, upstream);
  const optIn = state.directives.length === 1 && defaultOnEdits(state.directives[0]!, upstream.directive, count);
  return optIn && guard ? `"keepalive ${defaultOnText(guard.control, count)};"` : `"keepalive ${count};" where the template renders no other`;
}

/** What the passes using the upstream need besides its keepalive, by protocol; said also when none is seen. */
function passNeeds(users: readonly Pass[]): string {
  const protocols = new Set(users.map((pass) => pass.protocol));
  const needs: string[] = [];
  if (users.length === 0 || protocols.has('http')) {
    needs.push('proxy_pass needs "proxy_http_version 1.1;" and "proxy_set_header Connection "";" (before nginx 1.29.7)');
  }
  if (users.length === 0 || protocols.has('fastcgi')) needs.push('fastcgi_pass needs "fastcgi_keep_conn on;"');
  const seen = users.length === 0 ? 'No pass in the checked files uses it; wherever it is used, ' : 'Besides keepalive, ';
  return `${seen}${needs.join(', and ')}. The fix adds what the passes it sees lack.`;
}

const WHY_NONE =
  'Without keepalive the upstream has no connection cache (before nginx 1.29.7): every request opens a TCP (and TLS) ' +
  'connection and closes it, and under load the closed ones pile up in TIME_WAIT until local ports run out.';

function message(state: UpstreamKeepaliveState, count: number): RuleMessage {
  // The finding sits on the upstream's name: the headline need not repeat it (a templated name can be long).
  const { keepalive, upstream, users } = state;
  const name = `Upstream "${upstream.name}"`;
  const fastcgi = users.some((pass) => pass.protocol === 'fastcgi') ? ' and "fastcgi_keep_conn on;"' : '';
  if (keepalive.kind === 'guarded') {
    const { condition, unless } = waitsFor(keepalive, upstream);
    return {
      headline: `upstream keeps connections only if ${shortened(unless, 36)}: make keepalive default-on`,
      detail:
        `${name} has its keepalive under ${condition}, so it is off unless ${unless}. ${WHY_NONE} ` +
        `Make it default-on: ${guardedSuggestion(keepalive, upstream, count)}. ${passNeeds(users)}`,
    };
  }
  if (keepalive.kind === 'zero') {
    return {
      headline: `"keepalive 0" opens a new connection for every request: use "keepalive ${count};" unless meant`,
      detail:
        `${name} has "keepalive 0": from nginx 1.29.7 that turns off the cache an upstream{} otherwise has ` +
        '(`keepalive 32 local`), so every request opens a TCP (and TLS) connection and closes it, and under load the ' +
        'closed ones pile up in TIME_WAIT until local ports run out. Some deployments set it on purpose (a backend that ' +
        'mishandles reused connections, authentication bound to a connection): this is information, and the fix, ' +
        `which brings reuse back, is applied only with --unsafe-fixes. ${passNeeds(users)}`,
    };
  }
  return { headline: `upstream has no keepalive: add "keepalive ${count};"${fastcgi}`, detail: `${name} has no keepalive. ${WHY_NONE} ${passNeeds(users)}` };
}

/** What the rule found at one upstream: its keepalive state and the passes that use it (stream ones left out). */
export interface UpstreamKeepaliveState extends RuleState {
  upstream: Upstream;
  keepalive: Exclude<KeepaliveState, { kind: 'explicit' | 'default' | 'unknown' }>;
  users: Pass[];
}

function keepaliveEdits(workspace: Workspace, upstream: Upstream, state: UpstreamKeepaliveState['keepalive'], count: number): TextEdit[] | undefined {
  if (state.kind === 'zero') return [replaceSpan(state.directive.file, state.directive.args[0]!.span, String(count))];
  if (state.kind === 'guarded') {
    return state.directives.length === 1 ? defaultOnEdits(state.directives[0]!, upstream.directive, count) : undefined;
  }
  const insert = insertAfterMembers(workspace, upstream, `keepalive ${count};`);
  return insert && [insert];
}

/** keepaliveEdits() has an answer (an upstream whose block is not closed, in a file with a syntax error, has none). */
function ownEditPossible(workspace: Workspace, upstream: Upstream, state: UpstreamKeepaliveState['keepalive'], count: number): boolean {
  try {
    return keepaliveEdits(workspace, upstream, state, count) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Why the fix cannot be complete. A new `keepalive` is a question of placement: every place the block is included
 * must take it. And keepalive alone does not make a pass reuse connections (HTTP/1.0, `Connection: close`, no
 * fastcgi_keep_conn): with no pass in sight, nothing says the rest would follow.
 */
function withheld(
  workspace: Workspace,
  upstream: Upstream,
  state: UpstreamKeepaliveState['keepalive'],
  users: readonly Pass[],
  options: ResolvedOptions,
): string | undefined {
  if (users.length === 0) return 'no pass in the checked files uses it (check them together)';
  const unknown = usersUnknown(workspace, users, options);
  if (unknown) return unknown;
  if (state.kind !== 'none') return undefined;
  for (const body of upstream.bodies) {
    const refused = refusal(body, 'keepalive');
    if (refused) return refused.why;
  }
  return undefined;
}

/**
 * A user whose HTTP version, Connection header or fastcgi_keep_conn the model cannot read (an include it could not
 * follow, a templated value, a template condition the pass is not under): keepalive would be added while that pass
 * may still close every connection, so the fix is withheld and says which directive hides where.
 */
function usersUnknown(workspace: Workspace, users: readonly Pass[], options: ResolvedOptions): string | undefined {
  for (const pass of users) {
    const where = `${pass.name} at ${writtenAt(pass.directive)}`;
    if (isMisread(pass.directive)) return `${where} comes after a syntax error, where nginx stops reading: fix that first`;
    const hidden = (name: string) => hiddenReason(workspace, pass.scope, name) ?? `${name} for ${where} is templated or conditional`;
    if (pass.name === 'proxy_pass') {
      // Unknown only above the pass's location: the fix writes the location's own proxy_http_version 1.1.
      const version = httpVersionState(workspace, pass.scope, options).kind;
      if (version === 'unknown' && !http11Plan(workspace, pass, options)) return hidden('proxy_http_version');
      if (connectionState(workspace, pass.scope, options).kind === 'unknown') return hidden('proxy_set_header');
    }
    const keepConn = pass.name === 'fastcgi_pass' ? keepConnState(workspace, pass.scope).kind : undefined;
    if (keepConn === 'unknown' && !keepConnPlan(workspace, pass)) return hidden('fastcgi_keep_conn');
  }
  return undefined;
}

function reportable(state: KeepaliveState, options: ResolvedOptions): state is UpstreamKeepaliveState['keepalive'] {
  if (state.kind === 'none' || state.kind === 'guarded') return true;
  // `keepalive 0` is a configuration error before 1.29.7 (nginx -t says so): reported only where it is valid and
  // means "off".
  return state.kind === 'zero' && hasModernKeepaliveDefaults(options);
}

export const upstreamKeepaliveRule: Rule<UpstreamKeepaliveState> = {
  meta: {
    id: 'upstream-keepalive',
    description: 'An http upstream {} has no keepalive, so every proxied request opens a new connection.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const states: UpstreamKeepaliveState[] = [];
    for (const upstream of upstreams(workspace)) {
      const keepalive = keepaliveState(upstream, options);
      if (!reportable(keepalive, options)) continue;
      // A `proxy_pass` in stream {} names a stream upstream, even when an http one has the same name.
      const users = usersOf(workspace, upstream).filter((pass) => !outsideHttp(pass.scope));
      if (usedOnlyWithoutKeepalive(workspace, users, options)) continue;
      states.push({
        file: upstream.directive.file.path,
        span: upstream.directive.args[0]!.span,
        // Both may be deliberate: an opt-in the template's user has not taken, an off switch someone wrote.
        severity: keepalive.kind === 'guarded' || keepalive.kind === 'zero' ? 'info' : undefined,
        unsafeFix: keepalive.kind === 'zero' ? true : undefined,
        withheld: withheld(workspace, upstream, keepalive, users, options),
        // The upstream's own edit is one line, so it is built here to know there is one; the users' edits wait.
        noFix: ownEditPossible(workspace, upstream, keepalive, options.keepaliveConnections) ? undefined : true,
        upstream,
        keepalive,
        users,
      });
    }
    return states;
  },
  message(state, { options }) {
    return message(state, options.keepaliveConnections);
  },
  fix({ upstream, keepalive, users }, { workspace, options }) {
    const count = options.keepaliveConnections;
    try {
      // Inside the try too: an upstream whose block is not closed (a file with a syntax error) has nowhere to insert.
      const own = keepaliveEdits(workspace, upstream, keepalive, count);
      if (!own) return undefined;
      const edits = mergeEdits([...own, ...upstreamUsersEdits(workspace, users, options), ...connectionValueEdits(workspace, users, options)]);
      return { title: `Keep ${count} idle connections to upstream "${shortened(upstream.name)}"${usersPart(workspace, users, options)}`, edits };
    } catch {
      // The users' edits collide with the keepalive edit (both in one line of a one-line config), or there is no
      // closed block to insert into: offer nothing rather than a fix with no defined result.
      return undefined;
    }
  },
};
