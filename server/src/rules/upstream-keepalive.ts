// `upstream-keepalive`: An http upstream {} has no keepalive, so every proxied request opens a new connection.
//
// Without `keepalive N` (before 1.29.7) the upstream module has no connection cache: every request to the group
// opens a TCP (and TLS) connection and closes it afterwards. From 1.29.7 an upstream{} block gets `keepalive 32` by
// default, so only an explicit `keepalive 0` (which disables it) is reported there.
//
// Reported at the upstream's name argument (the `upstream` line), once per block, when the block is used by a
// proxy_pass, fastcgi_pass, grpc_pass or memcached_pass, or by no pass at all (it may be used from a file that was
// not checked). Not when every user is uwsgi_pass/scgi_pass (those protocols cannot keep connections), never for
// `stream {}` upstreams (upstreams.ts leaves them out), and not when the block may hold more than the model sees
// (keepalive-state.ts: `unknown`). A keepalive that exists only under a template `{{ if }}` is information:
// keepalive is off unless someone sets it (Dokku's `PROXY_KEEPALIVE`).
//
// Fix (one per finding, all edits together):
// - none: `keepalive N;` (N = keepaliveConnections) after the last server or balancer directive of the block, past
//   the `{{ end }}` of a template range around the servers (upstream-members.ts);
// - `keepalive 0` (>= 1.29.7): the 0 becomes N;
// - the Dokku opt-in in a sigil: made default-on, `keepalive {{ $.PROXY_KEEPALIVE | default "N" }};`
//   (template-opt-in.ts); other guarded shapes get no fix;
// - none either where `keepalive` may not be inserted (fixes/placement.ts): the message then says why;
// - plus, in every case, what each user needs to reuse the connections: HTTP/1.1 and a cleared Connection for
//   proxy_pass, `fastcgi_keep_conn on` for fastcgi_pass (upstream-users.ts), so the fix leaves no new finding.
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
import { upstreamUsersEdits } from '../fixes/upstream-users.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';

const NO_KEEPALIVE_PROTOCOLS = new Set(['uwsgi', 'scgi']);

/** Only uwsgi/scgi passes use it: keepalive could not help them. No users at all is not "only". */
function usedOnlyWithoutKeepalive(users: readonly Pass[]): boolean {
  return users.length > 0 && users.every((pass) => NO_KEEPALIVE_PROTOCOLS.has(pass.protocol));
}

/** The guard that makes the keepalive conditional inside the block: `{{ if $.PROXY_KEEPALIVE }}`. */
function guardOf(state: Extract<KeepaliveState, { kind: 'guarded' }>, upstream: Upstream): TemplateGuard | undefined {
  const block = upstream.directive;
  return state.directives[0]!.guards.find((guard) => block.file !== state.directives[0]!.file || !block.guards.includes(guard));
}

function guardedMessage(state: Extract<KeepaliveState, { kind: 'guarded' }>, upstream: Upstream, count: number): string {
  const guard = guardOf(state, upstream);
  const pipeline = guard?.control.pipeline ?? '';
  const condition = !guard
    ? 'a template condition'
    : guard.inElse
      ? `a template branch of ${formatControl(guard.control, pipeline)}`
      : formatControl(guard.control, pipeline);
  // `$.PROXY_KEEPALIVE` (Go) or `nginx_keepalive` (Jinja) reads as the setting's name; anything else is described.
  const setting = guard && !guard.inElse ? settingName(guard.control) : undefined;
  const unless = setting ? `${setting} is set` : 'the template renders it';
  const optIn = state.directives.length === 1 && defaultOnEdits(state.directives[0]!, upstream.directive, count);
  const suggestion =
    optIn && guard
      ? `keepalive ${defaultOnText(guard.control, count)};`
      : `e.g. "keepalive ${count};" where the template renders no other`;
  return (
    `upstream "${upstream.name}" has keepalive only under ${condition}: keepalive is off unless ${unless}, and ` +
    `without it nginx opens a new connection for every request (make it default-on: ${suggestion})`
  );
}

function message(state: KeepaliveState, upstream: Upstream, count: number): string {
  const name = `upstream "${upstream.name}"`;
  if (state.kind === 'guarded') return guardedMessage(state, upstream, count);
  if (state.kind === 'zero') {
    return `${name} has "keepalive 0", which disables its connection cache: nginx opens a new connection for every request (use "keepalive ${count};")`;
  }
  return `${name} has no keepalive: nginx opens a new connection for every request (add "keepalive ${count};")`;
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

/** A new `keepalive` is a question of placement: every place the block is included must take it. */
function withheld(upstream: Upstream, state: UpstreamKeepaliveState['keepalive']): string | undefined {
  if (state.kind !== 'none') return undefined;
  for (const body of upstream.bodies) {
    const refused = refusal(body, 'keepalive');
    if (refused) return refused.why;
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
  detect({ workspace, options }) {
    const states: UpstreamKeepaliveState[] = [];
    for (const upstream of upstreams(workspace)) {
      const keepalive = keepaliveState(upstream, options);
      if (!reportable(keepalive, options)) continue;
      // A `proxy_pass` in stream {} names a stream upstream, even when an http one has the same name.
      const users = usersOf(workspace, upstream).filter((pass) => !outsideHttp(pass.scope));
      if (usedOnlyWithoutKeepalive(users)) continue;
      states.push({
        file: upstream.directive.file.path,
        span: upstream.directive.args[0]!.span,
        severity: keepalive.kind === 'guarded' ? 'info' : undefined,
        withheld: withheld(upstream, keepalive),
        upstream,
        keepalive,
        users,
      });
    }
    return states;
  },
  message(state, { options }) {
    return { headline: message(state.keepalive, state.upstream, options.keepaliveConnections) };
  },
  fix({ upstream, keepalive, users }, { workspace, options }) {
    const count = options.keepaliveConnections;
    try {
      // Inside the try too: an upstream whose block is not closed (a file with a syntax error) has nowhere to insert.
      const own = keepaliveEdits(workspace, upstream, keepalive, count);
      if (!own) return undefined;
      const edits = mergeEdits([...own, ...upstreamUsersEdits(workspace, users, options)]);
      return { title: `Keep up to ${count} idle connections to upstream "${upstream.name}"`, edits };
    } catch {
      // The users' edits collide with the keepalive edit (both in one line of a one-line config), or there is no
      // closed block to insert into: offer nothing rather than a fix with no defined result.
      return undefined;
    }
  },
};
