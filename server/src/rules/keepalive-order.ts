// `keepalive-order`: keepalive placed before ip_hash/hash/least_conn/random, which disables it before nginx 1.29.7.
// Before 1.29.7 `keepalive` wraps the balancer installed so far; a balancer directive after it installs its own peer
// initialisation over the wrapper, so connections are never cached (nginx -t only warns "load balancing method
// redefined", easy to miss). From 1.29.7 the order no longer matters, so the rule is silent for such targets.
//
// Reported at the `keepalive` directive, once per keepalive followed (in nginx order, includes expanded) by a
// balancer of the same upstream. A keepalive and a balancer in different branches of one template `{{ if }}` are
// never rendered together and are not reported.
//
// Fix: the keepalive line moves to right after the last balancer (a deletion plus an insertion at the balancer's
// indentation, past the `{{ end }}` of a template block around the balancer; a comment trailing the keepalive moves
// with it). No fix when the keepalive sits in a file included into the block (shared snippets are not rewritten)
// or under a template guard inside the block (moving it out of its `{{ if }}` would change what the template means).
import { isMisreadUpstream } from '../analysis/misread.js';
import { deleteDirectiveLine, lineEndOf, lineStartOf } from '../fixes/edits.js';
import { guardsWithin } from '../analysis/scopes.js';
import { upstreams, type Upstream } from '../analysis/upstreams.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import type { Fix } from '../util/types.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { guardsExclusive } from '../analysis/template-blocks.js';
import { insertAfterStatement } from '../fixes/upstream-members.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';

function source(directive: Directive): string {
  return directive.file.text.slice(directive.span.startOffset, directive.span.endOffset);
}

/** The balancers after `keepalive` in nginx order that can be rendered together with it. */
function balancersAfter(upstream: Upstream, keepalive: Directive): Directive[] {
  const statements = upstream.bodies[0]?.statements ?? [];
  const at = statements.indexOf(keepalive);
  return upstream.balancers.filter(
    (balancer) => statements.indexOf(balancer) > at && !guardsExclusive(keepalive, balancer),
  );
}

/** `keepalive 16;` plus the comment that trails it on its own line, if any. */
function movedText(keepalive: Directive): string {
  const text = keepalive.file.text;
  const end = keepalive.span.endOffset;
  const alone = text.slice(lineStartOf(text, keepalive.span.startOffset), keepalive.span.startOffset).trim() === '';
  const comment = /^[ \t]*(#.*)$/.exec(text.slice(end, lineEndOf(text, end)));
  return alone && comment ? `${source(keepalive)} ${comment[1]}` : source(keepalive);
}

/** Only a keepalive written in the block itself, outside any template guard in it, is moved. */
function movable(upstream: Upstream, keepalive: Directive): boolean {
  const body = upstream.bodies[0];
  return keepalive.parent === upstream.directive && !(body && guardsWithin(keepalive, body).length > 0);
}

function moveFix(workspace: Workspace, upstream: Upstream, keepalive: Directive, balancer: Directive): Fix | undefined {
  const insert = insertAfterStatement(workspace, upstream, balancer, movedText(keepalive));
  if (!insert) return undefined;
  return { title: `Move "${source(keepalive)}" after "${balancer.name}"`, edits: [deleteDirectiveLine(keepalive), insert] };
}

/** A keepalive followed by balancers of its upstream: `last` is where it should move to. */
export interface KeepaliveOrderState extends RuleState {
  upstream: Upstream;
  keepalive: Directive;
  balancers: Directive[];
  last: Directive;
}

export const keepaliveOrderRule: Rule<KeepaliveOrderState> = {
  meta: {
    id: 'keepalive-order',
    description: 'keepalive placed before ip_hash/hash/least_conn/random, which disables it before nginx 1.29.7.',
    defaultSeverity: 'warning',
    nginxVersions: '<1.29.7',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    if (hasModernKeepaliveDefaults(options)) return [];
    const states: KeepaliveOrderState[] = [];
    for (const upstream of upstreams(workspace)) {
      // Past a syntax error the block is the grammar's guess: nginx never reads it (analysis/misread.ts).
      if (isMisreadUpstream(upstream)) continue;
      for (const keepalive of upstream.keepalive) {
        const balancers = balancersAfter(upstream, keepalive);
        const last = balancers.at(-1);
        if (!last) continue;
        const noFix = movable(upstream, keepalive) ? undefined : (true as const);
        states.push({ file: keepalive.file.path, span: keepalive.span, noFix, upstream, keepalive, balancers, last });
      }
    }
    return states;
  },
  message({ upstream, balancers, last }) {
    const names = [...new Set(balancers.map((balancer) => balancer.name))].join('", "');
    return {
      headline: `"${last.name}" after keepalive turns it off before nginx 1.29.7: move keepalive after it`,
      detail:
        `In upstream "${upstream.name}": before nginx 1.29.7, keepalive wraps the balancer installed so far; "${names}" written after it installs its own ` +
        'and the connection cache is never used (nginx -t only warns "load balancing method redefined"). ' +
        'From 1.29.7 the order does not matter.',
    };
  },
  fix({ upstream, keepalive, last }, { workspace }) {
    return moveFix(workspace, upstream, keepalive, last);
  },
};
