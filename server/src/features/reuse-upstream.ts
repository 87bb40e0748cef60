// Whether an upstream{} keeps idle connections at all, with the reason: its keepalive and, before nginx 1.29.7,
// whether a balancer directive after keepalive silently replaced it. A ✗ naming a rule is that rule's own finding
// (rule-states.ts); the analysis facts (keepalive-state.ts) only word the reason. The hover shows these next to the
// per-location checks of reuse-pass.ts.
import { keepaliveState } from '../analysis/keepalive-state.js';
import type { Upstream } from '../analysis/upstreams.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { ruleStates } from './rule-states.js';
import type { RuleState } from '../analysis/rule-api.js';
import { writtenAt } from '../analysis/message-parts.js';
import type { ResolvedOptions } from '../util/types.js';
import { code, directiveCode } from './markdown.js';

export type CheckStatus = 'ok' | 'fail' | 'unknown';

export interface ReuseCheck {
  /** What is checked: `keepalive`, `balancer order`, `HTTP version`, ... */
  label: string;
  status: CheckStatus;
  /** Markdown: why. */
  reason: string;
  /** The rule that reports this failure, for a link to its documentation. */
  ruleId?: string;
  /** Where that rule's finding is (the state it decided on): a check naming a rule always has one. */
  reportedAt?: { file: string; offset: number };
}

export const ok = (label: string, reason: string): ReuseCheck => ({ label, status: 'ok', reason });
export const unknown = (label: string, reason: string): ReuseCheck => ({ label, status: 'unknown', reason });
/** A failure, naming the rule whose finding `state` is; without a state, a fact no rule reports (a stream proxy). */
export function fail(label: string, reason: string, ruleId?: string, state?: RuleState): ReuseCheck {
  const check: ReuseCheck = { label, status: 'fail', reason };
  return ruleId && state ? named(check, ruleId, state) : check;
}

export function named(check: ReuseCheck, ruleId: string, state: RuleState): ReuseCheck {
  return { ...check, ruleId, reportedAt: { file: state.file, offset: state.span.startOffset } };
}

/** `keepalive 16;` (site.conf:5) */
export function at(directive: Directive): string {
  return `${directiveCode(directive)} (${writtenAt(directive)})`;
}

export function keepaliveCheck(workspace: Workspace, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const label = 'keepalive';
  const reported = ruleStates(workspace, options).upstreamKeepalive(upstream);
  const state = reported?.keepalive ?? keepaliveState(upstream, options);
  switch (state.kind) {
    case 'explicit':
      return ok(label, `${at(state.directive)}: idle connections are cached per worker process${sharing(state.directive, options)}`);
    case 'default':
      return ok(
        label,
        'none written; from nginx 1.29.7 an upstream{} block has `keepalive 32 local`: 32 idle connections per worker, ' +
          'each reused only by the location that opened it',
      );
    case 'guarded': {
      const reason = `${at(state.directives[0]!)} only when the template renders it (it sits under a template condition)`;
      // Reported as information: keepalive is off unless someone sets it.
      return reported ? named(unknown(label, reason), 'upstream-keepalive', reported) : unknown(label, reason);
    }
    case 'zero':
      // Reported from 1.29.7, where 0 means "off"; before, nginx -t rejects the value (the directive rule says so).
      if (!reported) return fail(label, `${at(state.directive)} is an invalid value before nginx 1.29.7 (nginx -t rejects it)`);
      return fail(label, `${at(state.directive)} disables the connection cache`, 'upstream-keepalive', reported);
    case 'none': {
      const reason = 'no `keepalive` in the block: before nginx 1.29.7 nginx opens a new connection for every request';
      // Not reported when every user speaks uwsgi or scgi: those close anyway (the protocol check says so).
      return fail(label, reason, 'upstream-keepalive', reported);
    }
    case 'unknown':
      return unknown(label, 'part of the block cannot be read (an include that was not followed, or a syntax error)');
  }
}

/**
 * From 1.29.7 the cache is per location with the `local` parameter (and by default), shared by every location using
 * the upstream without it, as every `keepalive` was before (ngx_http_upstream_keepalive_module.c tags each cached
 * connection with the location that used it).
 */
function sharing(directive: Directive, options: ResolvedOptions): string {
  if (!hasModernKeepaliveDefaults(options)) return '';
  return directive.args[1]?.value === 'local'
    ? ', each reused only by the location that opened it (`local`)'
    : ', shared by every location that uses the upstream (no `local`)';
}

export function balancerCheck(workspace: Workspace, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const label = 'balancer order';
  const method = upstream.balancers.at(-1);
  const methodText = method ? code(method.name) : 'round robin (no balancer directive)';
  if (hasModernKeepaliveDefaults(options)) {
    return ok(label, `${methodText}; from nginx 1.29.7 the order of balancer and keepalive does not matter`);
  }
  const reported = ruleStates(workspace, options).keepaliveOrder(upstream);
  if (reported) {
    const reason = `${at(reported.last)} comes after ${at(reported.keepalive)}: before nginx 1.29.7 it replaces keepalive, so no connection is cached`;
    return fail(label, reason, 'keepalive-order', reported);
  }
  return ok(label, method && upstream.keepalive.length > 0 ? `${methodText} comes before \`keepalive\`` : methodText);
}

/** The servers of the block as written, at most `limit` of them. */
export function serverList(upstream: Upstream, limit = 8): string {
  if (upstream.servers.length === 0) return 'none written';
  const shown = upstream.servers.slice(0, limit).map((server) => code(server.args.map((argument) => argument.raw).join(' ')));
  const more = upstream.servers.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

export function worstStatus(checks: readonly ReuseCheck[]): CheckStatus {
  if (checks.some((check) => check.status === 'fail')) return 'fail';
  return checks.some((check) => check.status === 'unknown') ? 'unknown' : 'ok';
}
