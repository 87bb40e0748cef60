// `connection-header-passthrough`: `proxy_set_header Connection $http_connection;` hands the client's own Connection
// header to the upstream. A client that sends `Connection: close` (every HTTP/1.0 client, `ab` without -k, many
// health checkers) makes the upstream close the connection nginx wanted to keep; the client can also name further
// headers as hop-by-hop. Dokku's template does this to make WebSocket work; the upgrade map does that without the
// passthrough: `upgrade` when the client asks to upgrade, nothing otherwise.
//
// Reported on every such line in http (never stream: there is no proxy_set_header there), whatever the pass targets:
// the upstream may get keepalive later, and from 1.29.7 every explicit upstream has it. Not for a value that is not
// exactly `$http_connection` (`$http_connection, x`, template actions): those are not guessed at.
//
// Fix: the value becomes the upgrade map's variable (`$connection_upgrade`), the map inserted or reused by
// ensureUpgradeMap. Deliberately minimal: an `Upgrade $http_upgrade` header is not added where the set lacks one.
// Without it WebSocket could not work before either (the upstream never saw the Upgrade header), and the map keeps
// what the upstream sees for an upgrade request: `Connection: upgrade`. No fix where no http level can hold a map (a
// location snippet checked on its own), and none, with the reason in the message, where the only http level is the
// top of a snippet whose context is unknown (fixes/placement.ts): it may be included in a location.
import { isMisread } from '../analysis/misread.js';
import { allScopes, outsideHttp, type Scope } from '../analysis/scopes.js';
import { headerKey } from '../analysis/inheritance.js';
import { ensureUpgradeMap, upgradeMapRefusal } from '../fixes/connection-map.js';
import { NoFix } from '../fixes/placement.js';
import type { Argument, Directive } from '../model/types.js';
import type { Rule, RuleMessage, RuleState } from '../analysis/rule-api.js';

const PASSTHROUGH = /^\$(http_connection|\{http_connection\})$/i;

/** `proxy_set_header Connection $http_connection` (name any case, value quoted or not). */
function passthroughValue(directive: Directive): Argument | undefined {
  // Asked of every statement: the name first, and no destructuring (an iterator before V8 optimizes this).
  if (directive.name !== 'proxy_set_header' || directive.args.length !== 2) return undefined;
  const name = directive.args[0]!;
  const value = directive.args[1]!;
  if (name.templated || value.templated || headerKey(name.value) !== 'connection') return undefined;
  return PASSTHROUGH.test(value.value) ? value : undefined;
}

/** One `Connection $http_connection` line, with every scope it is read in (a file included at several places). */
export interface ConnectionHeaderPassthroughState extends RuleState {
  directive: Directive;
  value: Argument;
  scopes: Scope[];
}

const MESSAGE: RuleMessage = {
  headline: "Connection $http_connection passes clients' \"close\" upstream: use an upgrade map with '' ''",
  detail:
    'A client sending "Connection: close" (every HTTP/1.0 client, many load balancers, health checks and scripts) ' +
    'makes the upstream close the connection nginx would reuse. ' +
    "map $http_upgrade $connection_upgrade { default upgrade; '' ''; } with \"proxy_set_header Connection " +
    '$connection_upgrade;" keeps WebSocket upgrades working and sends no Connection header otherwise.',
};

/**
 * Whether any scope (an includer of the line's file) can take the map; if none, the first reason one gives, or no
 * fix without a reason when no scope has an http level at all (a location snippet checked alone).
 */
function availability(scopes: readonly Scope[]): Pick<RuleState, 'withheld' | 'noFix'> {
  let why: string | undefined;
  for (const scope of scopes) {
    const refused = upgradeMapRefusal(scope);
    if (!refused) return {};
    if (refused instanceof NoFix) why ??= refused.why;
  }
  return why === undefined ? { noFix: true } : { withheld: why };
}

function spanOf(argument: Argument): { startOffset: number; endOffset: number } {
  return { startOffset: argument.span.startOffset, endOffset: argument.span.endOffset };
}

export const connectionHeaderPassthroughRule: Rule<ConnectionHeaderPassthroughState> = {
  meta: {
    id: 'connection-header-passthrough',
    description: "proxy_set_header Connection $http_connection forwards the client's Connection header (close) to the upstream.",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace }) {
    const found = new Map<Directive, ConnectionHeaderPassthroughState>();
    const scopes = allScopes(workspace);
    for (let s = 0; s < scopes.length; s++) {
      const scope = scopes[s]!;
      // proxy_set_header is an error under stream {} or mail {}: not ours to report.
      if (outsideHttp(scope)) continue;
      const statements = scope.statements;
      for (let i = 0; i < statements.length; i++) {
        const directive = statements[i]!;
        const value = passthroughValue(directive);
        // Read past a syntax error, the line is the grammar's guess: nginx never reads it (analysis/misread.ts).
        if (!value || isMisread(directive)) continue;
        const state = found.get(directive) ?? { file: directive.file.path, span: directive.span, directive, value, scopes: [] };
        state.scopes.push(scope);
        found.set(directive, state);
      }
    }
    const states = [...found.values()];
    for (const state of states) Object.assign(state, availability(state.scopes));
    return states;
  },
  message() {
    return MESSAGE;
  },
  fix({ directive, value, scopes }, { workspace, options }) {
    for (const scope of scopes) {
      const map = ensureUpgradeMap(workspace, { file: directive.file, scope }, options);
      if (!map || map instanceof NoFix) continue;
      const quote = value.quoted || '';
      const replacement = { file: directive.file.path, ...spanOf(value), newText: quote + map.variable + quote };
      return { title: `Use ${map.variable} (the upgrade map) instead of $http_connection`, edits: [replacement, ...map.edits] };
    }
    return undefined;
  },
};
