// Whether an upstream{} keeps idle connections at all, with the reason: its keepalive (keepalive-state.ts) and,
// before nginx 1.29.7, whether a balancer directive after keepalive silently replaced it (the keepalive-order rule's
// condition). The hover shows these next to the per-location checks of reuse-pass.ts.
import { keepaliveState } from '../analysis/keepalive-state.js';
import { guardsExclusive } from '../analysis/template-blocks.js';
import type { Upstream } from '../analysis/upstreams.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import type { Directive } from '../model/types.js';
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
}

export const ok = (label: string, reason: string): ReuseCheck => ({ label, status: 'ok', reason });
export const unknown = (label: string, reason: string): ReuseCheck => ({ label, status: 'unknown', reason });
export function fail(label: string, reason: string, ruleId?: string): ReuseCheck {
  return ruleId ? { label, status: 'fail', reason, ruleId } : { label, status: 'fail', reason };
}

/** `keepalive 16;` (site.conf:5) */
export function at(directive: Directive): string {
  return `${directiveCode(directive)} (${writtenAt(directive)})`;
}

export function keepaliveCheck(upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const label = 'keepalive';
  const state = keepaliveState(upstream, options);
  switch (state.kind) {
    case 'explicit':
      return ok(label, `${at(state.directive)}: idle connections are cached per worker process`);
    case 'default':
      return ok(label, 'none written; from nginx 1.29.7 an upstream{} block keeps 32 idle connections by default');
    case 'guarded': {
      const reason = `${at(state.directives[0]!)} only when the template renders it (it sits under a template condition)`;
      return { ...unknown(label, reason), ruleId: 'upstream-keepalive' };
    }
    case 'zero':
      return fail(label, `${at(state.directive)} disables the connection cache`, 'upstream-keepalive');
    case 'none': {
      const reason = 'no `keepalive` in the block: before nginx 1.29.7 nginx opens a new connection for every request';
      return fail(label, reason, 'upstream-keepalive');
    }
    case 'unknown':
      return unknown(label, 'part of the block cannot be read (an include that was not followed, or a syntax error)');
  }
}

/** Balancers after `keepalive` in nginx order that can be rendered together with it. */
function balancersAfter(upstream: Upstream, keepalive: Directive): Directive[] {
  const statements = upstream.bodies[0]?.statements ?? [];
  const position = statements.indexOf(keepalive);
  return upstream.balancers.filter(
    (balancer) => statements.indexOf(balancer) > position && !guardsExclusive(keepalive, balancer),
  );
}

export function balancerCheck(upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const label = 'balancer order';
  const method = upstream.balancers.at(-1);
  const methodText = method ? code(method.name) : 'round robin (no balancer directive)';
  if (hasModernKeepaliveDefaults(options)) {
    return ok(label, `${methodText}; from nginx 1.29.7 the order of balancer and keepalive does not matter`);
  }
  for (const keepalive of upstream.keepalive) {
    const later = balancersAfter(upstream, keepalive).at(-1);
    if (!later) continue;
    const reason = `${at(later)} comes after ${at(keepalive)}: before nginx 1.29.7 it replaces keepalive, so no connection is cached`;
    return fail(label, reason, 'keepalive-order');
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
