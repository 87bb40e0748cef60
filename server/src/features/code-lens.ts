// The code lens above each `upstream` block: whether it keeps connections and, for the passes that use it, how many
// are ready to reuse them and what the others need, e.g. "keepalive ✓ · 3 passes ready" or
// "keepalive off · 2 passes need HTTP/1.1". Every claim is one of the hover's checks (reuse-upstream.ts,
// reuse-pass.ts), which read the rules' own states (rule-states.ts): the lens counts verdicts, it never makes one.
// A need a rule reports carries that rule and the place of its finding (test/features/code-lens-agrees.test.ts holds
// the lens to analyze()'s findings).
//
//   upstreamLenses(ctx)   one lens per upstream{} written in the document, in document order
import { keepaliveState } from '../analysis/keepalive-state.js';
import { usersOf, type Pass } from '../analysis/passes.js';
import { outsideHttp } from '../analysis/scopes.js';
import { upstreams, type Upstream } from '../analysis/upstreams.js';
import type { ResolvedOptions } from '../util/types.js';
import { featureOptions, type FeatureContext, type FeatureLocation } from './context.js';
import { passReuse } from './reuse-pass.js';
import { balancerCheck, keepaliveCheck, type ReuseCheck } from './reuse-upstream.js';

/**
 * What one pass lacks, on its own side (its location's directives or its protocol):
 * - ready: connections are reused;
 * - needs: something in its location must change (the failing checks say what);
 * - otherwise-ready: nothing in its location, only the upstream's keepalive is missing or ignored;
 * - unknown: a template or an include that was not followed decides;
 * - never: the protocol cannot reuse connections (a stream proxy, uwsgi, scgi).
 */
export type PassOutlook = 'ready' | 'needs' | 'otherwise-ready' | 'unknown' | 'never';

export interface PassLens {
  pass: Pass;
  outlook: PassOutlook;
  /** The failing checks of the pass's own side (for `needs`), each naming the rule that reports it when one does. */
  needs: ReuseCheck[];
}

export interface UpstreamLens {
  upstream: Upstream;
  /** Where the lens sits: the `upstream` directive's name. */
  span: FeatureLocation['span'];
  title: string;
  /** The upstream's own checks: keepalive, then balancer order. */
  upstreamChecks: [ReuseCheck, ReuseCheck];
  passes: PassLens[];
  /** The first pass that needs a change in its location: where clicking the lens goes. */
  reveal?: FeatureLocation;
}

const UPSTREAM_LABELS = new Set(['keepalive', 'balancer order']);
/** How a failing check of the pass's side reads after "need": the directive that fixes it. */
const NEED_WORDS: Record<string, string> = {
  'HTTP version': 'HTTP/1.1',
  'Connection header': 'Connection ""',
  fastcgi_keep_conn: 'fastcgi_keep_conn on',
};
const NEED_ORDER = Object.keys(NEED_WORDS);

function keepalivePart(upstream: Upstream, keepalive: ReuseCheck, balancer: ReuseCheck, options: ResolvedOptions): string {
  if (balancer.status === 'fail') return `keepalive ignored: ${upstream.balancers.at(-1)?.name ?? 'a balancer'} after it`;
  const state = keepaliveState(upstream, options);
  switch (keepalive.status) {
    case 'ok':
      return state.kind === 'default' ? 'keepalive ✓ (default 32 local)' : 'keepalive ✓';
    case 'unknown':
      // Reported (as information) when a template condition decides; otherwise part of the block cannot be read.
      return keepalive.ruleId ? 'keepalive only if the template renders it' : 'keepalive ?';
    case 'fail':
      if (state.kind === 'zero') return keepalive.ruleId ? 'keepalive off (0)' : 'keepalive 0 is invalid before nginx 1.29.7';
      return 'keepalive off';
  }
}

function outlookOf(checks: readonly ReuseCheck[]): Omit<PassLens, 'pass'> {
  const own = checks.filter((check) => !UPSTREAM_LABELS.has(check.label));
  const failing = own.filter((check) => check.status === 'fail');
  if (failing.some((check) => check.label === 'protocol')) return { outlook: 'never', needs: [] };
  if (failing.length > 0) return { outlook: 'needs', needs: failing };
  if (own.some((check) => check.status === 'unknown')) return { outlook: 'unknown', needs: [] };
  const upstreamSide = checks.filter((check) => UPSTREAM_LABELS.has(check.label));
  return { outlook: upstreamSide.every((check) => check.status === 'ok') ? 'ready' : 'otherwise-ready', needs: [] };
}

const passes = (count: number) => (count === 1 ? 'pass' : 'passes');

/** "2 passes need HTTP/1.1 + Connection """; the noun only on the first count ("· 1 ready"). */
function countParts(lenses: readonly PassLens[]): string[] {
  const groups = new Map<string, number>();
  const add = (key: string) => groups.set(key, (groups.get(key) ?? 0) + 1);
  const protocols = new Map<string, number>();
  for (const lens of lenses) {
    if (lens.outlook === 'needs') {
      const words = lens.needs.map((check) => check.label).sort((a, b) => NEED_ORDER.indexOf(a) - NEED_ORDER.indexOf(b));
      add(`need ${[...new Set(words)].map((label) => NEED_WORDS[label] ?? label).join(' + ')}`);
    } else if (lens.outlook === 'never') {
      const protocol = outsideHttp(lens.pass.scope) ? 'stream' : lens.pass.protocol;
      protocols.set(protocol, (protocols.get(protocol) ?? 0) + 1);
    }
  }
  const parts: string[] = [];
  const push = (count: number, text: string) => {
    if (count === 0) return;
    const singular = count === 1 ? text.replace(/^need /, 'needs ') : text;
    parts.push(parts.length === 0 ? `${count} ${passes(count)} ${singular}` : `${count} ${singular}`);
  };
  for (const [text, count] of groups) push(count, text);
  for (const [protocol, count] of protocols) push(count, `never reuse (${protocol})`);
  const counted = (outlook: PassOutlook) => lenses.filter((lens) => lens.outlook === outlook).length;
  push(counted('unknown'), 'unknown (template or include)');
  push(counted('otherwise-ready'), 'otherwise ready');
  push(counted('ready'), 'ready');
  return parts;
}

function lensOf(ctx: FeatureContext, upstream: Upstream, options: ResolvedOptions): UpstreamLens {
  const { workspace } = ctx;
  const upstreamChecks: [ReuseCheck, ReuseCheck] = [keepaliveCheck(workspace, upstream, options), balancerCheck(workspace, upstream, options)];
  const passLenses = usersOf(workspace, upstream).map((pass) => ({ pass, ...outlookOf(passReuse(workspace, pass, upstream, options).checks) }));
  const counts = passLenses.length === 0 ? ['no pass uses it'] : countParts(passLenses);
  const firstNeed = passLenses.find((lens) => lens.outlook === 'needs')?.pass.directive;
  return {
    upstream,
    span: upstream.directive.nameSpan,
    title: [keepalivePart(upstream, ...upstreamChecks, options), ...counts].join(' · '),
    upstreamChecks,
    passes: passLenses,
    reveal: firstNeed && { file: firstNeed.file, span: firstNeed.span },
  };
}

export function upstreamLenses(ctx: FeatureContext): UpstreamLens[] {
  const options = featureOptions(ctx.options);
  return upstreams(ctx.workspace)
    .filter((upstream) => upstream.directive.file === ctx.file)
    .sort((a, b) => a.directive.span.startOffset - b.directive.span.startOffset)
    .map((upstream) => lensOf(ctx, upstream, options));
}
