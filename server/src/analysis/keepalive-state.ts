// Whether an upstream{} keeps idle connections, for the target nginx version: the fact the keepalive rules share.
//
//   keepaliveState(upstream, options)   see KeepaliveState below
//   hasKeepalive(state)                 the upstream counts as a "keepalive upstream" for the other rules
//
// Decisions:
// - Only unguarded `keepalive` directives count as explicit, and keepalives in every branch of one
//   `{{ if }}...{{ else }}...{{ end }}` (one of them is always rendered). One that exists only under a template guard
//   within the block (Dokku's `{{ if $.PROXY_KEEPALIVE }} keepalive ...{{ end }}`) is `guarded`: the template may
//   enable it, so the other rules treat it as keepalive, and upstream-keepalive reports it as information
//   (pre-1.29.7).
// - A templated count (`keepalive {{ $.N }};`) is explicit: its value is not guessed (it might even render 0).
// - `keepalive 0` is `zero`: it disables keepalive from 1.29.7 on and is a configuration error before.
// - From 1.29.7 an explicit upstream{} without keepalive gets `keepalive 32`: `default`; a guarded one as well (the
//   guard only chooses between the user's value and the default).
// - `unknown` when the block could hold more than the model sees: an include in its body that pulled in nothing, or
//   a syntax problem inside the block, or a block holding or past its file's first syntax error (misread.ts).
//   Nothing is reported about an unknown upstream.
import type { Directive } from '../model/types.js';
import type { ResolvedOptions } from '../util/types.js';
import { isMisreadUpstream } from './misread.js';
import { guardsWithin, unfollowedIncludes, type Scope } from './scopes.js';
import { templateBlockOf } from './template-blocks.js';
import type { Upstream } from './upstreams.js';
import { hasModernKeepaliveDefaults } from './versions.js';
import { MemoMap } from '../util/memo-map.js';

export type KeepaliveState =
  | { kind: 'explicit'; directive: Directive }
  | { kind: 'default' }
  | { kind: 'guarded'; directives: Directive[] }
  | { kind: 'none' }
  | { kind: 'zero'; directive: Directive }
  | { kind: 'unknown' };

// Every pass to an upstream asks (three rules each): decide each upstream once.
const unknownUpstreams = new MemoMap<Upstream, boolean>();

function isUnknown(upstream: Upstream): boolean {
  let unknown = unknownUpstreams.get(upstream);
  if (unknown === undefined) {
    unknown = hidesStatements(upstream);
    unknownUpstreams.set(upstream, unknown);
  }
  return unknown;
}

function hidesStatements(upstream: Upstream): boolean {
  if (upstream.bodies.some((body) => unfollowedIncludes(body).length > 0)) return true;
  // Holding or past its file's first syntax error, the block is the grammar's guess (nginx stops there).
  if (isMisreadUpstream(upstream)) return true;
  const block = upstream.directive.blockSpan;
  return (
    !!block &&
    upstream.directive.file.syntaxProblems.some(
      (problem) => problem.span.startOffset < block.endOffset && problem.span.endOffset > block.startOffset,
    )
  );
}

/**
 * True when the keepalives sit in every branch of one `{{ if }} ... {{ else }} ... {{ end }}` (and under no other
 * guard): whatever the condition, one of them is rendered.
 */
function coversEveryBranch(directives: readonly Directive[], body: Scope): boolean {
  const guards = directives.map((directive) => guardsWithin(directive, body));
  const first = guards[0]?.[0];
  if (!first || first.control.keyword !== 'if') return false;
  if (guards.some((list) => list.length !== 1 || list[0]!.control !== first.control)) return false;
  const block = templateBlockOf(directives[0]!.file, first.control);
  if (!block || block.branches.at(-1)?.keyword !== 'else') return false;
  const covered = new Set(guards.map((list) => (list[0]!.inElse ? list[0]!.branch : undefined)));
  return covered.has(undefined) && block.branches.every((branch) => covered.has(branch));
}

// Three rules ask about every upstream once per pass that uses it: decide each upstream once per target version.
const states = new MemoMap<Upstream, Map<string, KeepaliveState>>();

/** Shared between callers: do not mutate. */
export function keepaliveState(upstream: Upstream, options: Pick<ResolvedOptions, 'nginxVersion'>): KeepaliveState {
  const version = options.nginxVersion?.join('.') ?? '';
  let byVersion = states.get(upstream);
  if (!byVersion) states.set(upstream, (byVersion = new Map()));
  let state = byVersion.get(version);
  if (!state) {
    state = decideKeepalive(upstream, options);
    byVersion.set(version, state);
  }
  return state;
}

function decideKeepalive(upstream: Upstream, options: Pick<ResolvedOptions, 'nginxVersion'>): KeepaliveState {
  if (isUnknown(upstream)) return { kind: 'unknown' };
  const body = upstream.bodies[0];
  const unguarded = upstream.keepalive.filter((directive) => !body || guardsWithin(directive, body).length === 0);
  const modern = hasModernKeepaliveDefaults(options);
  // nginx rejects a second `keepalive` ("is duplicate"), so the last unguarded one is the one that counts.
  const last = unguarded.at(-1);
  if (last) {
    const count = last.args[0];
    if (count && !count.templated && count.value === '0') return { kind: 'zero', directive: last };
    return { kind: 'explicit', directive: last };
  }
  if (body && upstream.keepalive.length > 0 && coversEveryBranch(upstream.keepalive, body)) {
    return { kind: 'explicit', directive: upstream.keepalive.at(-1)! };
  }
  if (modern) return { kind: 'default' };
  if (upstream.keepalive.length > 0) return { kind: 'guarded', directives: upstream.keepalive };
  return { kind: 'none' };
}

export function hasKeepalive(state: KeepaliveState): boolean {
  return state.kind === 'explicit' || state.kind === 'default' || state.kind === 'guarded';
}
