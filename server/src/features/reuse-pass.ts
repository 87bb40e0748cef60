// Whether connections are reused from one pass (a proxy_pass, fastcgi_pass, ... in its location): the upstream's
// own checks (reuse-upstream.ts) plus what this location sends, each with its reason. A ✗ naming a rule is that
// rule's own finding at this pass (rule-states.ts); the analysis facts (analysis/proxy-state.ts) only word the
// reasons and the ✓ and ? marks. Unknown means the rules would not guess either (templates, includes that were not
// followed).
//
//   passReuse(ws, pass, upstream, options)   { status, checks }
import type { Pass } from '../analysis/passes.js';
import { outsideHttp, type Scope } from '../analysis/scopes.js';
import type { Upstream } from '../analysis/upstreams.js';
import { lookupDirective } from '../analysis/effective-lookup.js';
import { connectionState, httpVersionState, keepConnState, speaksHttp2, type Found } from '../analysis/proxy-state.js';
import { effectiveMaps, emptyArm, httpScopeOf, isCloseArm, upgradeMapKind } from '../analysis/upgrade-maps.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { levelLabel, writtenAt } from '../analysis/message-parts.js';
import type { ResolvedOptions } from '../util/types.js';
import { code, directiveCode } from './markdown.js';
import { ruleStates } from './rule-states.js';
import type { ConnectionHeaderPassthroughState } from '../rules/connection-header-passthrough.js';
import { at, balancerCheck, fail, keepaliveCheck, named, ok, unknown, worstStatus, type CheckStatus, type ReuseCheck } from './reuse-upstream.js';

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

/**
 * A failing fact no pass rule reported: its rule waits for the upstream to keep connections. When upstream-keepalive
 * reports the upstream, its fix sets this too (fixes/upstream-users.ts), so the ✗ names that rule; otherwise (the
 * upstream's keepalive cannot be read) it names none.
 */
function waitingForKeepalive(workspace: Workspace, upstream: Upstream, options: ResolvedOptions, label: string, reason: string): ReuseCheck {
  const reported = ruleStates(workspace, options).upstreamKeepalive(upstream);
  return reported && reported.severity !== 'info' ? fail(label, reason, 'upstream-keepalive', reported) : fail(label, reason);
}

function httpVersionCheck(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const reported = ruleStates(workspace, options).proxyHttpVersion(pass);
  const state = reported?.version ?? httpVersionState(workspace, pass.scope, options);
  const failing = (reason: string) =>
    reported ? fail(HTTP_VERSION, reason, 'proxy-http-version', reported) : waitingForKeepalive(workspace, upstream, options, HTTP_VERSION, reason);
  switch (state.kind) {
    case 'unknown':
      return unknown(HTTP_VERSION, unknownReason(workspace, pass.scope, 'proxy_http_version'));
    case 'behind-include': {
      // The rule's information (a ? naming it): only the unread include can say.
      const reason = `${directiveCode(state.include)} on ${levelLabel(state.level)} (${writtenAt(state.include)}) could not be read and may set it`;
      return named(unknown(HTTP_VERSION, reason), 'proxy-http-version', reported!);
    }
    case 'default-1.0':
      return failing(
        'no `proxy_http_version` applies here and before nginx 1.29.7 the default is 1.0: ' +
          'the upstream closes after every response',
      );
    case 'explicit-1.0': {
      const directives = state.definition.directives;
      const written = directives.find((d) => d.args[0]?.value === '1.0') ?? directives.at(-1);
      return failing(`${definedAt(state.definition, written)}: HTTP/1.0 closes after every response`);
    }
    case 'ok': {
      const lookup = lookupDirective(workspace, pass.scope, 'proxy_http_version');
      if (lookup.kind !== 'found') return ok(HTTP_VERSION, 'HTTP/1.1, the default from nginx 1.29.7');
      return ok(HTTP_VERSION, definedAt(lookup, lookup.directives.at(-1)));
    }
  }
}

function passthroughCheck(state: ConnectionHeaderPassthroughState): ReuseCheck {
  const reason = `${at(state.directive)} forwards the client's own Connection header: a client sending \`close\` closes the upstream connection`;
  return fail(CONNECTION, reason, 'connection-header-passthrough', state);
}

/** A Connection header whose value has variables: `$http_connection` passes the client's on; a map is read. */
function variableConnection(workspace: Workspace, directive: Directive, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const states = ruleStates(workspace, options);
  const passthrough = states.connectionHeaderPassthrough(directive);
  if (passthrough) return passthroughCheck(passthrough);
  const variable = directive.args[1]?.variables[0]?.name.toLowerCase();
  const http = httpScopeOf(pass.scope);
  const reading = variable === undefined || !http ? undefined : effectiveMaps(http).get(variable);
  if (!reading) return unknown(CONNECTION, `${at(directive)}: its value is only known at run time`);
  const arm = emptyArm(reading);
  if (arm && isCloseArm(arm)) {
    const reason =
      `${at(directive)}; the \`''\` arm of ${at(reading.directive)} sends \`close\` ` +
      'for every request without an Upgrade header';
    const closing = states.connectionMapClose(pass);
    if (closing) return fail(CONNECTION, reason, 'connection-map-close', closing);
    return waitingForKeepalive(workspace, upstream, options, CONNECTION, reason);
  }
  if (upgradeMapKind(reading) === 'keepalive') {
    return ok(CONNECTION, `${at(directive)}; ${at(reading.directive)} sends none for ordinary requests`);
  }
  return unknown(CONNECTION, `${at(directive)}: ${at(reading.directive)} decides at run time`);
}

function connectionCheck(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const states = ruleStates(workspace, options);
  const reported = states.connectionHeaderMissing(pass);
  const state = reported?.connection ?? connectionState(workspace, pass.scope, options);
  const failing = (reason: string) =>
    reported ? fail(CONNECTION, reason, 'connection-header-missing', reported) : waitingForKeepalive(workspace, upstream, options, CONNECTION, reason);
  switch (state.kind) {
    case 'unknown': {
      // A template condition decides what is sent, but `$http_connection` is wrong wherever it is rendered
      // (connection-header-passthrough reports it regardless).
      const written = connectionHeaderAt(workspace, pass.scope);
      const passthrough = written && states.connectionHeaderPassthrough(written.directive);
      if (passthrough) return passthroughCheck(passthrough);
      // So is a map whose '' arm closes, when it is the header the pass sends (connection-map-close decides that).
      if (written && states.connectionMapClose(pass)) return variableConnection(workspace, written.directive, pass, upstream, options);
      return unknown(CONNECTION, unknownReason(workspace, pass.scope, 'proxy_set_header'));
    }
    case 'variable':
      return variableConnection(workspace, state.header.directive, pass, upstream, options);
    case 'close':
      return failing(`${definedAt(state.definition, state.header.directive)} asks the upstream to close`);
    case 'unset': {
      const source = state.definition
        ? `the headers in effect are set on ${levelLabel(state.definition.level)} and include no Connection`
        : 'no `proxy_set_header Connection` applies here';
      return failing(`${source}, so before nginx 1.29.7 nginx sends \`Connection: close\``);
    }
    case 'ok': {
      const written = connectionHeaderAt(workspace, pass.scope);
      if (written) return ok(CONNECTION, definedAt(written.definition, written.directive));
      if (speaksHttp2(workspace, pass.scope)) return ok(CONNECTION, 'none is sent: over HTTP/2 (`proxy_http_version 2`) nginx adds no `Connection: close`');
      return ok(CONNECTION, 'none is sent (from nginx 1.29.7 nginx no longer adds `Connection: close`)');
    }
  }
}

function keepConnCheck(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseCheck {
  const reported = ruleStates(workspace, options).fastcgiKeepConn(pass);
  const state = reported?.keepConn ?? keepConnState(workspace, pass.scope);
  const closes = 'the FastCGI server closes the connection after every response';
  const failing = (reason: string) =>
    reported ? fail(KEEP_CONN, reason, 'fastcgi-keep-conn', reported) : waitingForKeepalive(workspace, upstream, options, KEEP_CONN, reason);
  switch (state.kind) {
    case 'unknown':
      return unknown(KEEP_CONN, unknownReason(workspace, pass.scope, 'fastcgi_keep_conn'));
    case 'missing':
      return failing(`no \`fastcgi_keep_conn on\` applies here (the default is off): ${closes}`);
    case 'explicit-off':
      return failing(`${definedAt(state.definition, state.definition.directives.at(-1))}: ${closes}`);
    case 'ok': {
      const lookup = lookupDirective(workspace, pass.scope, 'fastcgi_keep_conn');
      return ok(KEEP_CONN, lookup.kind === 'found' ? definedAt(lookup, lookup.directives.at(-1)) : code('fastcgi_keep_conn on'));
    }
  }
}

function protocolChecks(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseCheck[] {
  const label = 'protocol';
  if (outsideHttp(pass.scope)) return [fail(label, 'a stream proxy: one upstream connection per client connection')];
  switch (pass.protocol) {
    case 'http':
      return [httpVersionCheck(workspace, pass, upstream, options), connectionCheck(workspace, pass, upstream, options)];
    case 'fastcgi':
      return [keepConnCheck(workspace, pass, upstream, options)];
    case 'grpc':
      return [ok(label, 'gRPC speaks HTTP/2: the upstream keepalive is all it needs')];
    case 'memcached':
      return [ok(label, 'memcached connections are kept with the upstream keepalive alone')];
    case 'uwsgi':
    case 'scgi':
      return [fail(label, `the ${pass.protocol} protocol has no keepalive: nginx closes after every request`)];
    case 'tunnel':
      return [fail(label, 'a CONNECT tunnel: nginx never caches its upstream connection')];
  }
}

export function passReuse(workspace: Workspace, pass: Pass, upstream: Upstream, options: ResolvedOptions): ReuseVerdict {
  const checks = [
    keepaliveCheck(workspace, upstream, options),
    balancerCheck(workspace, upstream, options),
    ...protocolChecks(workspace, pass, upstream, options),
  ];
  return { status: worstStatus(checks), checks };
}
