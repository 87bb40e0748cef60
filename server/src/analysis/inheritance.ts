// nginx's merge of http-level settings: a location without a directive uses its enclosing location's, then the
// server's, then http's. Array directives (proxy_set_header, fastcgi_param, add_header, ...) are inherited as a whole
// set, and only when the level defines none: one `proxy_set_header Host $host;` in a location drops every header set
// above it, `Connection ""` included. That trap is why effectiveArray returns the level, not a merged list.
//
//   inheritanceChain(scope)          scope, then the levels it inherits from, innermost first, ending at http
//   effectiveDirective(scope, name)  the nearest level defining `name`: { level, directives, conditional }
//   effectiveArray(scope, name)      the same walk for array directives; `directives` is the whole effective set
//   effectiveHeaders(scope, name)    effectiveArray of a header-setting directive as lower-cased name -> ProxyHeader
//   effectiveProxyHeaders(scope)     effectiveHeaders(scope, 'proxy_set_header')
//
// nginx's built-in values (proxy_set_header's `Host $proxy_host` and, before 1.29.7, `Connection close`) are not
// included: what a level states explicitly is kept apart from defaults, which depend on the version (versions.ts).
import type { ContextName, Directive, Argument } from '../model/types.js';
import { guardsWithin, statementsNamed, type Scope } from './scopes.js';
import { normaliseTemplateText } from './template-text.js';
import { MemoMap } from '../util/memo-map.js';

/** Levels with a location-style configuration that inherits from the level around it. */
const INHERITING: ReadonlySet<ContextName> = new Set<ContextName>(['http', 'server', 'location', 'if', 'limit_except']);

/** Directives merged as a whole set: a level defining one of them inherits none of the level above's. */
export const ARRAY_DIRECTIVES: ReadonlySet<string> = new Set([
  'proxy_set_header',
  'grpc_set_header',
  'fastcgi_param',
  'uwsgi_param',
  'scgi_param',
  'add_header',
  'add_trailer',
  'proxy_hide_header',
  'proxy_pass_header',
]);

export interface Definition {
  /** The nearest level (the scope itself or one it inherits from) that defines the directive. */
  level: Scope;
  /** Every definition at that level, in nginx order (nginx uses the last of a non-array directive). */
  directives: Directive[];
  /**
   * True when every definition sits under a template guard within the level (`{{ if $.X }}`): rendered without it,
   * the level defines none and the level above applies.
   */
  conditional: boolean;
}

export interface ProxyHeader {
  /** The header name as written. */
  name: string;
  /** The last definition's value; undefined when that directive has no value argument. */
  value: Argument | undefined;
  /** The last definition of this header at the level. */
  directive: Directive;
  /** Every definition of this header at the level, in order (nginx sends each one whose value is not empty). */
  directives: Directive[];
  level: Scope;
}

/** `scope` and the levels it inherits from, innermost first; stops at http. Empty outside http-level contexts. */
export function inheritanceChain(scope: Scope): Scope[] {
  const chain: Scope[] = [];
  for (let level: Scope | undefined = scope; level && INHERITING.has(level.context); level = level.parent) {
    chain.push(level);
    if (level.context === 'http') break;
  }
  return chain;
}

function definedAt(level: Scope, name: string): Definition | undefined {
  const named = statementsNamed(level, name);
  if (named.length === 0) return undefined;
  const directives = [...named];
  const conditional = directives.every((directive) => guardsWithin(directive, level).length > 0);
  return { level, directives, conditional };
}

export function effectiveDirective(scope: Scope, name: string): Definition | undefined {
  for (const level of inheritanceChain(scope)) {
    const definition = definedAt(level, name);
    if (definition) return definition;
  }
  return undefined;
}

/** The array's effective set: the nearest level with at least one definition wins alone (see the file comment). */
export function effectiveArray(scope: Scope, name: string): Definition | undefined {
  return effectiveDirective(scope, name);
}

/** Header names compare case-insensitively; template actions in a name are normalised, not rendered. */
export function headerKey(name: string): string {
  return normaliseTemplateText(name, true);
}

// Every pass asks for its header set, and most passes share the few levels that define one: read each level's once.
const headerSets = new MemoMap<Scope, Map<string, ReadonlyMap<string, ProxyHeader>>>();
const NO_HEADERS: ReadonlyMap<string, ProxyHeader> = new Map();

/** Shared between callers: do not mutate. */
export function effectiveHeaders(scope: Scope, name: string): ReadonlyMap<string, ProxyHeader> {
  const definition = effectiveArray(scope, name);
  if (!definition) return NO_HEADERS;
  let byName = headerSets.get(definition.level);
  if (!byName) headerSets.set(definition.level, (byName = new Map()));
  let headers = byName.get(name);
  if (!headers) {
    headers = readHeaders(definition);
    byName.set(name, headers);
  }
  return headers;
}

function readHeaders(definition: Definition): Map<string, ProxyHeader> {
  const headers = new Map<string, ProxyHeader>();
  for (const directive of definition.directives) {
    const header = directive.args[0];
    if (!header) continue;
    const key = headerKey(header.value);
    // Appended in place: copying the list for each repeat is quadratic in a file setting one header 100,000 times.
    const directives = headers.get(key)?.directives ?? [];
    directives.push(directive);
    headers.set(key, { name: header.value, value: directive.args[1], directive, directives, level: definition.level });
  }
  return headers;
}

export function effectiveProxyHeaders(scope: Scope): ReadonlyMap<string, ProxyHeader> {
  return effectiveHeaders(scope, 'proxy_set_header');
}
