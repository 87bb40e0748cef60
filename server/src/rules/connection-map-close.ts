// `connection-map-close`: the WebSocket recipe of the nginx docs, `map $http_upgrade $connection_upgrade { default
// upgrade; '' close; }`, used as `proxy_set_header Connection $connection_upgrade;`. Its `''` arm is what every
// ordinary request (no Upgrade header) gets: `Connection: close`, so the upstream closes the connection after one
// response and the upstream's keepalive cache never holds it. `'' ''` sends no Connection header instead (what
// kubernetes ingress-nginx switches to when upstream keepalive is on) and keeps WebSocket working.
//
// Reported at the `'' close` entry of the map, once per map, when the map is its variable's effective definition at
// the http level (map variables are changeable: the last map of a name wins http-wide) and that variable is the
// effective Connection header (inheritance included) of a proxy_pass to a keepalive upstream (keepalive-state.ts:
// explicit, template-guarded, or by default from 1.29.7). A map only used towards upstreams without keepalive, or
// through passes whose target has variables, is not reported: nginx closes those connections anyway, or we cannot
// tell where they go. The map may read any source variable: what matters is the `''` arm feeding Connection.
//
// Fix: the `''` arm's value becomes `''` (in the quotes the key is written with).
import { isMisread } from '../analysis/misread.js';
import { keepaliveState, hasKeepalive } from '../analysis/keepalive-state.js';
import { passes, type Pass } from '../analysis/passes.js';
import type { Directive } from '../model/types.js';
import { closingMapsOf, type MapEntry, type MapReading } from '../analysis/upgrade-maps.js';
import { emptyArmFix } from '../fixes/connection-map.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';
import { shortened } from '../util/shortened.js';
import type { ResolvedOptions } from '../util/types.js';

interface Use {
  reading: MapReading;
  arm: MapEntry;
  pass: Pass;
  upstream: string;
}

function keepaliveUpstream(pass: Pass, options: ResolvedOptions): string | undefined {
  if (pass.protocol !== 'http' || pass.resolution.kind !== 'upstream') return undefined;
  return pass.resolution.upstreams.find((upstream) => hasKeepalive(keepaliveState(upstream, options)))?.name;
}

function closingUses(pass: Pass, options: ResolvedOptions): Use[] {
  const upstream = keepaliveUpstream(pass, options);
  if (upstream === undefined) return [];
  return closingMapsOf(pass.scope).map(({ reading, arm }) => ({ reading, arm, pass, upstream }));
}

/** One `'' close` arm, with the first use that makes it matter (its message) and every pass it closes. */
export interface ConnectionMapCloseState extends RuleState {
  use: Use;
  passes: Pass[];
}

export const connectionMapCloseRule: Rule<ConnectionMapCloseState> = {
  meta: {
    id: 'connection-map-close',
    description: "A map used as the Connection header sends close for ordinary requests ('' close).",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const byArm = new Map<Directive, ConnectionMapCloseState>();
    for (const pass of passes(workspace)) {
      // A pass read past a syntax error is the grammar's guess (analysis/misread.ts); so is an arm there.
      if (isMisread(pass.directive)) continue;
      for (const use of closingUses(pass, options)) {
        const state = byArm.get(use.arm.directive);
        if (state) {
          if (state.passes.at(-1) !== pass) state.passes.push(pass);
          continue;
        }
        const directive = use.arm.directive;
        // An arm without a value to rewrite (a template action) has no fix.
        const noFix = use.arm.value ? undefined : (true as const);
        byArm.set(directive, { file: directive.file.path, span: directive.span, noFix, use, passes: [pass] });
      }
    }
    return [...byArm.values()];
  },
  message({ use }) {
    const variable = `$${shortened(use.reading.variable, 24)}`;
    return {
      headline: `map ${variable} sends "Connection: close" on ordinary requests: map '' to '' instead`,
      detail:
        `Its '' arm (requests without an Upgrade header) is "close", and ${variable} is the Connection header of ` +
        `proxy_pass to keepalive upstream "${use.upstream}": the upstream closes each connection after one response. ` +
        "'' '' sends no Connection header and still upgrades WebSocket requests.",
    };
  },
  fix({ use }) {
    const edit = emptyArmFix(use.arm);
    return edit && { title: "Map '' to '' (no Connection header) instead of close", edits: [edit] };
  },
};
