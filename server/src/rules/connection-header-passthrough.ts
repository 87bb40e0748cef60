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
import { allScopes, type Scope } from '../analysis/scopes.js';
import { headerKey } from '../analysis/inheritance.js';
import type { Fix } from '../util/types.js';
import { ensureUpgradeMap } from '../fixes/connection-map.js';
import { NoFix, withFix } from '../fixes/placement.js';
import type { Argument, Directive } from '../model/types.js';
import type { Rule, RuleContext } from '../analysis/rule-api.js';

const PASSTHROUGH = /^\$(http_connection|\{http_connection\})$/i;

/** `proxy_set_header Connection $http_connection` (name any case, value quoted or not). */
function passthroughValue(directive: Directive): Argument | undefined {
  const [name, value] = directive.args;
  if (directive.name !== 'proxy_set_header' || directive.args.length !== 2 || !name || !value) return undefined;
  if (name.templated || value.templated || headerKey(name.value) !== 'connection') return undefined;
  return PASSTHROUGH.test(value.value) ? value : undefined;
}

/** Inside `stream {}` or `mail {}` (proxy_set_header is an error there; not ours to report). */
function outsideHttp(scope: Scope): boolean {
  for (let level: Scope | undefined = scope; level; level = level.parent) {
    if (level.context === 'stream' || level.context === 'mail') return true;
  }
  return false;
}

function fixFor(
  context: RuleContext,
  value: Argument,
  directive: Directive,
  scopes: readonly Scope[],
): Fix | NoFix | undefined {
  // A reason to withhold it in one scope is reported only if no other scope (another includer) can take the map.
  let withheld: NoFix | undefined;
  for (const scope of scopes) {
    const map = ensureUpgradeMap(context.workspace, { file: directive.file, scope }, context.options);
    if (map instanceof NoFix) withheld ??= map;
    if (!map || map instanceof NoFix) continue;
    const quote = value.quoted || '';
    const replacement = { file: directive.file.path, ...spanOf(value), newText: quote + map.variable + quote };
    return { title: `Use ${map.variable} (the upgrade map) instead of $http_connection`, edits: [replacement, ...map.edits] };
  }
  return withheld;
}

function spanOf(argument: Argument): { startOffset: number; endOffset: number } {
  return { startOffset: argument.span.startOffset, endOffset: argument.span.endOffset };
}

export const connectionHeaderPassthroughRule: Rule = {
  meta: {
    id: 'connection-header-passthrough',
    description: "proxy_set_header Connection $http_connection forwards the client's Connection header (close) to the upstream.",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check(context) {
    // A file included at several places sits in several scopes: one finding per directive, its scopes together.
    const found = new Map<Directive, { value: Argument; scopes: Scope[] }>();
    for (const scope of allScopes(context.workspace)) {
      if (outsideHttp(scope)) continue;
      for (const directive of scope.statements) {
        const value = passthroughValue(directive);
        if (!value) continue;
        const entry = found.get(directive) ?? { value, scopes: [] };
        entry.scopes.push(scope);
        found.set(directive, entry);
      }
    }
    for (const [directive, { value, scopes }] of found) {
      const message =
        "Connection is set to the client's own Connection header ($http_connection): a client sending " +
        '"close" (one that turns keep-alive off, as many load balancers and scripts do) makes the upstream close the ' +
        'connection nginx would reuse; ' +
        "use an upgrade map instead (map $http_upgrade $connection_upgrade { default upgrade; '' ''; })";
      context.report({
        file: directive.file.path,
        span: directive.span,
        ...withFix(message, fixFor(context, value, directive, scopes)),
      });
    }
  },
};
