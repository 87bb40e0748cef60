// Whether connections are reused from one pass (a proxy_pass, fastcgi_pass, ... in its location): the upstream's
// own checks (reuse-upstream.ts) plus what this location sends, from the same states the rules report
// (analysis/proxy-state.ts), each with its reason. Unknown means the rules would not guess either (templates, includes
// that were not followed).
//
//   passReuse(ws, pass, upstream, options)   { status, checks }
import type { Pass } from '../analysis/passes.js';
import type { Scope } from '../analysis/scopes.js';
import type { Upstream } from '../analysis/upstreams.js';
import { lookupDirective } from '../analysis/effective-lookup.js';
import { connectionState, httpVersionState, keepConnState, type Found } from '../analysis/proxy-state.js';
import { effectiveMaps, emptyArm, httpScopeOf, isCloseArm, upgradeMapKind } from '../analysis/upgrade-maps.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { levelLabel, writtenAt } from '../analysis/message-parts.js';
import type { ResolvedOptions } from '../util/types.js';
import { code, directiveCode } from './markdown.js';
import { at, balancerCheck, fail, keepaliveCheck, ok, unknown, worstStatus, type CheckStatus, type ReuseCheck } from './reuse-upstream.js';

export interface ReuseVerdict {
  status: CheckStatus;
  checks: ReuseCheck[];
}

const HTTP_VERSION = 'HTTP version';
const CONNECTION = 'Connection header';
const KEEP_CONN = 'fastcgi_keep_conn';

function definedAt(definition: Found, directive: Directive | undefined): string {
  if (!directive) return `\`include proxy_params\` on ${levelLabel(definition.level)}`;
  return `${directiveCode(directive)} on ${levelLabel(definition.level)} (${writtenAt(directive)})`;
}

/** Why a state is unknown, as specifically as the model allows. */
function unknownReason(workspace: Workspace, scope: Scope, name: string): string {
  const lookup = lookupDirective(workspace, scope, name);
  const last = lookup.kind === 'found' ? lookup.directives.at(-1) : undefined;
  if (lookup.kind !== 'found' || !last) return `an include that was not followed (or a syntax error) may set \`${name}\` here`;
  const where = definedAt(lookup, last);
  return lookup.conditional ? `${where} applies only when the template renders it` : `${where}: its value comes from the template`;
}

/** The effective set's last Connection header as written, even when a template condition makes the state unknown. */
function connectionHeaderAt(workspace: Workspace, scope: Scope): { definition: Found; directive: Directive } | undefined {
  const lookup = lookupDirective(workspace, scope, 'proxy_set_header');
  if (lookup.kind !== 'found') return undefined;
  const directive = lookup.directives.filter((d) => d.args[0]?.value.toLowerCase() === 'connection').at(-1);
  return directive && { definition: lookup, directive };
}

function httpVersionCheck(workspace: Workspace, scope: Scope, options: ResolvedOptions): ReuseCheck {
  const state = httpVersionState(workspace, scope, options);
  switch (state.kind) {
    case 'unknown':
      return unknown(HTTP_VERSION, unknownReason(workspace, scope, 'proxy_http_version'));
    case 'default-1.0': {
      const reason =
        'no `proxy_http_version` applies here and before nginx 1.29.7 the default is 1.0: ' +
        'the upstream closes after every response';
      return fail(HTTP_VERSION, reason, 'proxy-http-version');
    }
    case 'explicit-1.0': {
      const directives = state.definition.directives;
      const written = directives.find((d) => d.args[0]?.value === '1.0') ?? directives.at(-1);
      return fail(HTTP_VERSION, `${definedAt(state.definition, written)}: HTTP/1.0 closes after every response`, 'proxy-http-version');
    }
    case 'ok': {
      const lookup = lookupDirective(workspace, scope, 'proxy_http_version');
      if (lookup.kind !== 'found') return ok(HTTP_VERSION, 'HTTP/1.1, the default from nginx 1.29.7');
      return ok(HTTP_VERSION, definedAt(lookup, lookup.directives.at(-1)));
    }
  }
}

/** A Connection header whose value has variables: `$http_connection` passes the client's on; a map is read. */
function variableConnection(directive: Directive, scope: Scope): ReuseCheck {
  const variable = directive.args[1]?.variables[0]?.name.toLowerCase();
  if (variable === 'http_connection') {
    const reason =
      `${at(directive)} forwards the client's own Connection header: ` +
      'a client sending `close` closes the upstream connection';
    return fail(CONNECTION, reason, 'connection-header-passthrough');
  }
  const http = httpScopeOf(scope);
  const reading = variable === undefined || !http ? undefined : effectiveMaps(http).get(variable);
  if (!reading) return unknown(CONNECTION, `${at(directive)}: its value is only known at run time`);
  const arm = emptyArm(reading);
  if (arm && isCloseArm(arm)) {
    const reason =
      `${at(directive)}; the \`''\` arm of ${at(reading.directive)} sends \`close\` ` +
      'for every request without an Upgrade header';
    return fail(CONNECTION, reason, 'connection-map-close');
  }
  if (upgradeMapKind(reading) === 'keepalive') {
    return ok(CONNECTION, `${at(directive)}; ${at(reading.directive)} sends none for ordinary requests`);
  }
  return unknown(CONNECTION, `${at(directive)}: ${at(reading.directive)} decides at run time`);
}

function connectionCheck(workspace: Workspace, scope: Scope, options: ResolvedOptions): ReuseCheck {
  const state = connectionState(workspace, scope, options);
  switch (state.kind) {
    case 'unknown': {
      // `$http_connection` is wrong wherever it is rendered (connection-header-passthrough reports it regardless).
      const written = connectionHeaderAt(workspace, scope);
      const passthrough = written && variableConnection(written.directive, scope);
      if (passthrough?.ruleId === 'connection-header-passthrough') return passthrough;
      return unknown(CONNECTION, unknownReason(workspace, scope, 'proxy_set_header'));
    }
    case 'variable':
      return variableConnection(state.header.directive, scope);
    case 'close':
      return fail(
        CONNECTION,
        `${definedAt(state.definition, state.header.directive)} asks the upstream to close`,
        'connection-header-missing',
      );
    case 'unset': {
      const source = state.definition
        ? `the headers in effect are set on ${levelLabel(state.definition.level)} and include no Connection`
        : 'no `proxy_set_header Connection` applies here';
      return fail(CONNECTION, `${source}, so before nginx 1.29.7 nginx sends \`Connection: close\``, 'connection-header-missing');
    }
    case 'ok': {
      const written = connectionHeaderAt(workspace, scope);
      if (written) return ok(CONNECTION, definedAt(written.definition, written.directive));
      return ok(CONNECTION, 'none is sent (from nginx 1.29.7 nginx no longer adds `Connection: close`)');
    }
  }
}

function keepConnCheck(workspace: Workspace, scope: Scope): ReuseCheck {
  const state = keepConnState(workspace, scope);
  const closes = 'the FastCGI server closes the connection after every response';
  switch (state.kind) {
    case 'unknown':
      return unknown(KEEP_CONN, unknownReason(workspace, scope, 'fastcgi_keep_conn'));
    case 'missing':
      return fail(KEEP_CONN, `no \`fastcgi_keep_conn on\` applies here (the default is off): ${closes}`, 'fastcgi-keep-conn');
    case 'explicit-off':
      return fail(KEEP_CONN, `${definedAt(state.definition, state.definition.directives.at(-1))}: ${closes}`, 'fastcgi-keep-conn');
    case 'ok': {
      const lookup = lookupDirective(workspace, scope, 'fastcgi_keep_conn');
      return ok(KEEP_CONN, lookup.kind === 'found' ? definedAt(lookup, lookup.directives.at(-1)) : code('fastcgi_keep_conn on'));
    }
  }
}

function outsideHttp(scope: Scope): boolean {
  for (let level: Scope | undefined = scope; level; level = level.parent) {
    if (level.context === 'stream' || level.context === 'mail') return true;
  }
  return false;
}

function protocolChecks(workspace: Workspace, pass: Pass, options: ResolvedOptions): ReuseCheck[] {
  const label = 'protocol';
  if (outsideHttp(pass.scope)) return [fail(label, 'a stream proxy: one upstream connection per client connection')];
  switch (pass.protocol) {
    case 'http':
      return [httpVersionCheck(workspace, pass.scope, options), connectionCheck(workspace, pass.scope, options)];
    case 'fastcgi':
      return [keepConnCheck(workspace, pass.scope)];
    case 'grpc':
      return [ok(label, 'gRPC speaks HTTP/2: the upstream keepalive is all it needs')];
    case 'memcached':
      return [ok(label, 'memcached connections are kept with the upstream keepalive alone')];
    case 'uwsgi':
    case 'scgi':
      return [fail(label, `the ${pass.protocol} protocol has no keepalive: nginx closes after every request`)];
  }
}

export function passReuse(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseVerdict {
  const checks = [keepaliveCheck(upstream, options), balancerCheck(upstream, options), ...protocolChecks(workspace, pass, options)];
  return { status: worstStatus(checks), checks };
}
