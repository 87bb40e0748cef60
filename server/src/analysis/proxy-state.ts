// What a pass actually sends its upstream, as far as connection reuse goes: the effective proxy_http_version, the
// effective Connection header and fastcgi_keep_conn, with nginx's defaults for the target version. The rules report
// from these states and the fixes (proxy-reuse.ts, keep-conn.ts) repair exactly what the state names, so a fix never
// disagrees with its rule.
//
//   httpVersionState(ws, scope, options)   ok | unknown | default-1.0 | explicit-1.0 (with the defining level)
//   speaksHttp2(ws, scope)                 `proxy_http_version 2` (1.29.4+) is in effect, unconditionally
//   connectionState(ws, scope, options)    ok | unknown | variable | unset | close (with the defining level)
//   keepConnState(ws, scope)               ok | unknown | missing | explicit-off (with the defining level)
//   forwardsUpgrade(headers)               the effective set passes the client's Upgrade header on (WebSocket)
//   literalUpgrade(ws, scope)              the effective Connection header when it is the literal `upgrade`
//   unknownCause(ws, scope, name)          why lookupDirective() says unknown: the include it could not read, or
//                                          a syntax problem (for a finding's withheld reason)
//   versionBehindInclude(ws, scope, o)     the include the checker could not read (missing, outside the checked
//                                          paths) that alone decides whether the pass speaks HTTP/1.1
//   effectiveHeaderSet(found)              a found proxy_set_header set as lower-cased name -> ProxyHeader
//
// Unknown means "not knowable statically" (effective-lookup.ts): a template action in the value, a definition that
// exists only when a template guard renders it (the level above applies otherwise), an include that may hide one.
// Rules never report unknown states.
import type { Argument, Directive } from '../model/types.js';
import type { IncludeProblem } from '../model/workspace.js';
import { effectiveProxyHeaders, inheritanceChain, type ProxyHeader } from './inheritance.js';
import { statementsNamed, unfollowedIncludes, type Scope } from './scopes.js';
import { hasModernKeepaliveDefaults } from './versions.js';
import type { Workspace } from '../model/workspace.js';
import type { ResolvedOptions } from '../util/types.js';
import { conditionalGuards, lookupDirective, unreadLevel, type Lookup } from './effective-lookup.js';
import { perWorkspace } from './per-workspace.js';

export type VersionOptions = Pick<ResolvedOptions, 'nginxVersion'>;
export type Found = Extract<Lookup, { kind: 'found' }>;

export type HttpVersionState =
  | { kind: 'ok' | 'unknown' }
  /** No proxy_http_version on any level, before 1.29.7: nginx speaks HTTP/1.0 and closes after each request. */
  | { kind: 'default-1.0' }
  | { kind: 'explicit-1.0'; definition: Found };

export type ConnectionState =
  /** Cleared (`""`), or a literal that does not close (`upgrade`, `keep-alive`), or nginx >= 1.29.7 with none set. */
  | { kind: 'ok' | 'unknown' }
  /** `$http_connection` or a map variable: connection-header-passthrough and connection-map-close decide. */
  | { kind: 'variable'; header: ProxyHeader }
  /** No Connection in the effective set (or no set at all), before 1.29.7: nginx adds `Connection: close`. */
  | { kind: 'unset'; definition: Found | undefined }
  /** A literal `close` on the level that defines the effective set. */
  | { kind: 'close'; header: ProxyHeader; definition: Found };

export type KeepConnState =
  | { kind: 'ok' | 'unknown' }
  /** No fastcgi_keep_conn on any level: the default is off. */
  | { kind: 'missing' }
  | { kind: 'explicit-off'; definition: Found };

function isTemplated(argument: Argument | undefined): boolean {
  return argument?.templated ?? false;
}

/** A single-valued directive's state: `bad` when any definition says so (a guarded one may render), else ok. */
function flagState(definition: Found, bad: string): 'bad' | 'ok' | 'unknown' {
  const values = definition.directives.map((directive) => directive.args[0]);
  if (values.some((value) => value === undefined || isTemplated(value))) return 'unknown';
  if (values.some((value) => value!.value.toLowerCase() === bad)) return 'bad';
  // A guarded good value only applies when rendered: whether it is, is not ours to guess.
  return definition.conditional ? 'unknown' : 'ok';
}

export function httpVersionState(workspace: Workspace, scope: Scope, options: VersionOptions): HttpVersionState {
  const lookup = lookupDirective(workspace, scope, 'proxy_http_version');
  if (lookup.kind === 'unknown') return lookup;
  if (lookup.kind === 'none') return hasModernKeepaliveDefaults(options) ? { kind: 'ok' } : { kind: 'default-1.0' };
  const state = flagState(lookup, '1.0');
  return state === 'bad' ? { kind: 'explicit-1.0', definition: lookup } : { kind: state };
}

/**
 * `proxy_http_version 2;` (nginx 1.29.4+, HTTP/2 to the upstream) is in effect, in every definition that applies.
 * nginx keeps such connections like HTTP/1.1 ones, and sends no `Connection: close` over HTTP/2 on any version (the
 * header's default is only filled in for HTTP/1.x requests). Before 1.29.4 the value is invalid: the directive rule
 * says so, and the keepalive rules do not repeat it.
 */
export function speaksHttp2(workspace: Workspace, scope: Scope): boolean {
  const lookup = lookupDirective(workspace, scope, 'proxy_http_version');
  if (lookup.kind !== 'found' || lookup.conditional) return false;
  return lookup.directives.every((directive) => {
    const value = directive.args[0];
    return value !== undefined && !isTemplated(value) && value.value === '2';
  });
}

export function keepConnState(workspace: Workspace, scope: Scope): KeepConnState {
  const lookup = lookupDirective(workspace, scope, 'fastcgi_keep_conn');
  if (lookup.kind === 'unknown') return lookup;
  if (lookup.kind === 'none') return { kind: 'missing' };
  const state = flagState(lookup, 'off');
  return state === 'bad' ? { kind: 'explicit-off', definition: lookup } : { kind: state };
}

export function isLiteralClose(argument: Argument | undefined): boolean {
  return !!argument && !argument.templated && argument.variables.length === 0 && argument.value.trim().toLowerCase() === 'close';
}

/** The set's headers by lower-cased name; empty when only an unfollowed proxy_params defines it (no Connection there). */
export function effectiveHeaderSet(found: Found | undefined): ReadonlyMap<string, ProxyHeader> {
  return found && found.directives.length > 0 ? effectiveProxyHeaders(found.level) : new Map();
}

export function connectionState(workspace: Workspace, scope: Scope, options: VersionOptions): ConnectionState {
  const lookup = lookupDirective(workspace, scope, 'proxy_set_header');
  if (lookup.kind === 'unknown') return lookup;
  const definition = lookup.kind === 'found' ? lookup : undefined;
  if (definition?.conditional) return { kind: 'unknown' };
  const header = effectiveHeaderSet(definition).get('connection');
  if (!header) return hasModernKeepaliveDefaults(options) || speaksHttp2(workspace, scope) ? { kind: 'ok' } : { kind: 'unset', definition };
  const values = header.directives.map((directive) => directive.args[1]);
  if (values.some(isTemplated)) return { kind: 'unknown' };
  if (values.some((value) => (value?.variables.length ?? 0) > 0)) return { kind: 'variable', header };
  if (values.some(isLiteralClose)) return { kind: 'close', header, definition: definition! };
  return { kind: 'ok' };
}

/** `proxy_set_header Upgrade $http_upgrade;` in the effective set: the WebSocket recipe, which needs Connection too. */
export function forwardsUpgrade(headers: ReadonlyMap<string, ProxyHeader>): boolean {
  const upgrade = headers.get('upgrade');
  return upgrade?.value?.variables.some((variable) => variable.name.toLowerCase() === 'http_upgrade') ?? false;
}

/**
 * The effective Connection header when it is the literal `upgrade` (any case, quoted or not; one definition, none
 * under a template guard): the WebSocket recipe without a map, which asks every request to upgrade.
 */
export function literalUpgrade(workspace: Workspace, scope: Scope): ProxyHeader | undefined {
  return literalUpgradeAt(workspace, scope)?.header;
}

/** literalUpgrade() at `scope`, and whether its header set lacks an Upgrade header (a fix must add one). */
export function literalUpgradeAt(workspace: Workspace, scope: Scope): { header: ProxyHeader; addsUpgrade: boolean } | undefined {
  const lookup = lookupDirective(workspace, scope, 'proxy_set_header');
  if (lookup.kind !== 'found' || lookup.conditional) return undefined;
  const headers = effectiveHeaderSet(lookup);
  const header = headers.get('connection');
  if (!header || header.directives.length !== 1 || conditionalGuards(header.directive, header.level, scope).length > 0) return undefined;
  const value = header.value;
  if (!value || value.templated || value.variables.length > 0) return undefined;
  return value.value.trim().toLowerCase() === 'upgrade' ? { header, addsUpgrade: !headers.has('upgrade') } : undefined;
}

/** What hides a directive from lookupDirective(): an include it could not follow, or a syntax problem. */
export type UnknownCause =
  | { kind: 'include'; include: Directive; outside: boolean; problem: IncludeProblem | undefined }
  | { kind: 'syntax' };

/**
 * Why lookupDirective(ws, scope, name) is `unknown`, for a finding's withheld reason: the first include on the way
 * up that pulled in nothing it should have (a templated or variable path, a missing file, one outside the checked
 * paths), else a syntax problem on a level. Undefined when the lookup is not unknown.
 */
/** The workspace's include problems by include directive, built once per workspace (asked once per pass). */
const includeProblemsByDirective = perWorkspace(
  (workspace: Workspace) => new Map(workspace.includeProblems.map((problem) => [problem.directive, problem] as const)),
);

export function unknownCause(workspace: Workspace, scope: Scope, name: string): UnknownCause | undefined {
  if (lookupDirective(workspace, scope, name).kind !== 'unknown') return undefined;
  const problems = includeProblemsByDirective(workspace);
  for (const level of inheritanceChain(scope)) {
    // In lookupDirective()'s order: a level that may be misread hides before its includes do.
    if (unreadLevel(level)) return { kind: 'syntax' };
    for (const include of unfollowedIncludes(level)) {
      const target = include.args[0];
      const problem = problems.get(include);
      if (!target || target.templated || target.variables.length > 0 || problem) {
        return { kind: 'include', include, outside: problem?.kind === 'outside', problem };
      }
    }
    if (statementsNamed(level, name).length > 0) break;
  }
  return { kind: 'syntax' };
}

/** An include that could not be read and is all that stands between a pass and HTTP/1.0 (see below). */
export interface VersionBehindInclude {
  include: Directive;
  /** The level the include sits on. */
  level: Scope;
  problem: IncludeProblem & { kind: 'missing' | 'outside' };
  /** What applies when the include sets nothing: nginx's 1.0 default, a 1.0 set above it, or another unknown. */
  otherwise: 'default-1.0' | 'explicit-1.0' | 'unknown';
}

/**
 * The include that makes httpVersionState() unknown at `scope` when it is a file the checker could not read (missing,
 * unreadable, outside the checked paths), no level from the pass up to it sets proxy_http_version, and what applies
 * above it is not HTTP/1.1: whether the pass reuses connections is that file's to say. Undefined otherwise (a
 * templated path, a syntax problem, a level that sets its own, HTTP/1.1 inherited from above).
 */
export function versionBehindInclude(workspace: Workspace, scope: Scope, options: VersionOptions): VersionBehindInclude | undefined {
  if (httpVersionState(workspace, scope, options).kind !== 'unknown') return undefined;
  const cause = unknownCause(workspace, scope, 'proxy_http_version');
  const problem = cause?.kind === 'include' ? cause.problem : undefined;
  if (cause?.kind !== 'include' || !problem || (problem.kind !== 'missing' && problem.kind !== 'outside')) return undefined;
  const level = inheritanceChain(scope).find((candidate) => unfollowedIncludes(candidate).includes(cause.include));
  if (!level || statementsNamed(level, 'proxy_http_version').length > 0) return undefined;
  const above = level.parent ? httpVersionState(workspace, level.parent, options).kind : hasModernKeepaliveDefaults(options) ? 'ok' : 'default-1.0';
  if (above === 'ok') return undefined;
  return { include: cause.include, level, problem: problem as VersionBehindInclude['problem'], otherwise: above };
}
