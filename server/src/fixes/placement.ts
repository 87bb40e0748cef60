// Where a fix may insert a directive: one answer for every fix builder, so no fix writes a line nginx rejects with
// "directive is not allowed here".
//
//   refusal(level, name)   undefined when `name` may become a statement of `level`; otherwise a NoFix whose `why`
//                          the finding states (a rule's detect() puts it in its state's `withheld`, and
//                          analyze() ends the message with it)
//
// Decisions:
// - Each directive a fix writes is listed with the contexts nginx allows it in (its NGX_*_CONF flags): `map` and
//   `upstream` at the http level only, `keepalive` in an http upstream only (stream's upstream has none), the proxy
//   and fastcgi settings in http, server or location (not in `if` or `limit_except`). A name not listed is refused:
//   a new fix must say where its directive may go.
// - All of them are http directives, so the level must be http's: a level under stream {} or mail {} is not. It is
//   http's for sure when it or a block above it is one only http has (http, location, if, limit_except), or when the
//   root's top-level context is stated or inferred (model/context.ts) as an http one. A root whose context is unknown
//   (nothing in the file demands one) is read as http by the rules, so its findings stand, but nothing is inserted on
//   that guess: `proxy_set_header Connection $http_connection;` alone may be included in a location, where a `map`
//   is an error. The finding then says why it has no fix.
import type { Scope } from '../analysis/scopes.js';
import { rootContextOf } from '../model/context.js';
import type { ContextName } from '../model/types.js';

/** A fix withheld, and why, in words for the finding (lower case, no final period). */
export class NoFix {
  constructor(readonly why: string) {}
}

const HTTP_LEVELS: readonly ContextName[] = ['http', 'server', 'location'];

/** The directives fixes insert, and the contexts nginx accepts each in. */
const ALLOWED_IN: Readonly<Record<string, readonly ContextName[]>> = {
  map: ['http'],
  upstream: ['http'],
  keepalive: ['upstream'],
  proxy_http_version: HTTP_LEVELS,
  proxy_set_header: HTTP_LEVELS,
  proxy_redirect: HTTP_LEVELS,
  proxy_ssl_name: HTTP_LEVELS,
  fastcgi_keep_conn: HTTP_LEVELS,
};

/** Blocks only http has: a level at or under one is http's whatever the root's context. */
const HTTP_BLOCKS: ReadonlySet<ContextName> = new Set(['http', 'location', 'if', 'limit_except']);
/** Top-level contexts of a root (stated or inferred) that are http's levels. */
const HTTP_ROOTS: ReadonlySet<ContextName> = new Set(['http', 'server', 'location', 'upstream', 'if', 'limit_except']);

export const UNKNOWN_CONTEXT = "this file's context is unknown (check it with the file that includes it)";

type Protocol = 'http' | 'not-http' | 'unknown';

function protocolOf(level: Scope): Protocol {
  for (let scope: Scope | undefined = level; scope; scope = scope.parent) {
    if (scope.context === 'stream' || scope.context === 'mail') return 'not-http';
    if (scope.block && HTTP_BLOCKS.has(scope.context)) return 'http';
    if (!scope.parent) {
      // The root's own basis: a context given by --context or the settings file is stated though the file says none.
      if ((scope.root.basis ?? rootContextOf(scope.root.file).basis) === 'unknown') return 'unknown';
      return HTTP_ROOTS.has(scope.context) ? 'http' : 'not-http';
    }
  }
  return 'unknown';
}

export function refusal(level: Scope, name: string): NoFix | undefined {
  const allowed = Object.hasOwn(ALLOWED_IN, name) ? ALLOWED_IN[name]! : [];
  if (!allowed.includes(level.context)) return new NoFix(`"${name}" is not allowed in ${level.context} context`);
  const protocol = protocolOf(level);
  if (protocol === 'unknown') return new NoFix(UNKNOWN_CONTEXT);
  if (protocol === 'not-http') return new NoFix(`"${name}" is not allowed outside http`);
  return undefined;
}
