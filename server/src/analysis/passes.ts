// Every `*_pass` directive with the scope it sits in, its parsed target and the upstream{} blocks it uses.
//
//   passes(ws)               every pass, once per scope instance (a snippet included twice gives two), scope by
//                            scope in allScopes order
//   parsePassTarget(value)   scheme, host, port, uri or unix socket of a pass argument; never renders or guesses
//   usersOf(ws, upstream)    the passes whose resolution includes `upstream`, each with its protocol
//
// Resolution follows ngx_http_upstream_add: the host (without a port: nginx refuses a port on an upstream{} name)
// equals an upstream name, case-insensitively. A `$variable` in the host or port is resolved at run time: nginx may
// or may not land on an upstream{}, so it is `unresolved`, never guessed. A `$variable` right after a literal
// host[:port] starts the URI part (`http://storage:10000$request_uri`): the host stays literal, as it does for
// `http://storage:10000/$uri`, and `uriVariables` says nginx builds the URL per request (then it looks the host up
// among the upstream{} names at run time, and resolves it with `resolver` when none has it). After a port any
// variable starts the URI (a port ends where its digits do); after a bare host only one whose value starts with `/`
// or `?` does ($request_uri, $uri, $document_uri, $is_args): `http://app_$env` names a host built at run time. Templated hosts match by their normalised text,
// as Dokku writes both sides: `proxy_pass http://{{ $.APP }}-{{ $upstream_port }};` and
// `upstream {{ $.APP }}-{{ $upstream_port }} {`. Upstreams under the pass's own root are preferred; failing those,
// any root's (site files checked separately share one http block on the server).
// An envsubst placeholder (`${NAME}` in upper case: template-text.ts) is template text, not an nginx variable: one
// leading the target with a host right after it and no `://` of its own stands for the scheme
// (`proxy_pass ${UPSTREAM_SCHEME}backend;` uses `upstream backend`), as does one before `://`; one in the host is
// read as a template action there (`http://${BACKEND}` matches `upstream ${BACKEND}` by text, `http://${HOST}:8080`
// is an address filled in at container start: implicit).
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { perWorkspace } from './per-workspace.js';
import { allScopes, type Scope } from './scopes.js';
import {
  hasNginxVariable,
  hasPlaceholder,
  hasTemplateAction,
  indexOutsideActions,
  lastIndexOutsideActions,
  maskPlaceholders,
  normaliseTemplateText,
  placeholderRanges,
} from './template-text.js';
import { findUpstreamsFor, type Upstream } from './upstreams.js';

export const PASS_PROTOCOLS = {
  proxy_pass: 'http',
  fastcgi_pass: 'fastcgi',
  grpc_pass: 'grpc',
  uwsgi_pass: 'uwsgi',
  scgi_pass: 'scgi',
  memcached_pass: 'memcached',
  // nginx 1.31.0+ (ngx_http_tunnel_module): CONNECT tunnels, whose upstream connection is never kept (the module
  // clears keepalive once the tunnel is set up), so they are users keepalive cannot help.
  tunnel_pass: 'tunnel',
} as const;

export type PassDirectiveName = keyof typeof PASS_PROTOCOLS;
export type PassProtocol = (typeof PASS_PROTOCOLS)[PassDirectiveName];

export interface PassTarget {
  /** The argument's value as nginx reads it (quotes removed). */
  text: string;
  /** Lower-cased (`http`, `https`, `grpc`, `grpcs`, `uwsgi`, `suwsgi`); undefined when absent or a variable. */
  scheme: string | undefined;
  /** Template actions normalised, case kept; `[::1]` keeps its brackets. Undefined for a socket or no host. */
  host: string | undefined;
  port: string | undefined;
  /** From the first `/` after the host (proxy_pass, grpc_pass); for a socket, what follows the socket path. */
  uri: string | undefined;
  /** The path of a `unix:` socket. */
  socket: string | undefined;
  /** An nginx variable in the scheme, host, port or socket: which server is used is only known at run time. */
  hasVariables: boolean;
  /**
   * An nginx variable in the URI part only (host, port or socket literal): nginx builds the URL per request, so a
   * host name is looked up among upstream{} names, else resolved with `resolver`, at run time.
   */
  uriVariables: boolean;
  /** A template action or an envsubst placeholder (`${BACKEND_HOST}`) in the host, port or socket. */
  templated: boolean;
  /** The template text in the host, port or socket is envsubst placeholders only (no Go or Jinja action). */
  envsubst: boolean;
}

export type PassResolution =
  /** Names upstream{} blocks (several when roots or files define the same name). */
  | { kind: 'upstream'; upstreams: readonly Upstream[] }
  /** A literal address or socket, or a name no upstream{} has: nginx makes an implicit upstream, never pooled. */
  | { kind: 'implicit' }
  /** Not knowable statically: no argument, nginx variables, or a templated host no upstream{} matches. */
  | { kind: 'unresolved'; reason: 'no-target' | 'variables' | 'template' };

export interface Pass {
  directive: Directive;
  name: PassDirectiveName;
  protocol: PassProtocol;
  /** The scope the directive is a statement of. */
  scope: Scope;
  target: PassTarget | undefined;
  resolution: PassResolution;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

function splitHostPort(hostPort: string): { host: string; port: string | undefined } {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close !== -1) {
      const port = hostPort.slice(close + 1).startsWith(':') ? hostPort.slice(close + 2) : undefined;
      return { host: hostPort.slice(0, close + 1), port };
    }
  }
  const colon = lastIndexOutsideActions(hostPort, ':');
  if (colon === -1) return { host: hostPort, port: undefined };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

/** Template text in `text` (a Go/Jinja action or an envsubst placeholder), and whether it is placeholders only. */
function templating(text: string): Pick<PassTarget, 'templated' | 'envsubst'> {
  const action = hasTemplateAction(text);
  const placeholder = hasPlaceholder(text);
  return { templated: action || placeholder, envsubst: placeholder && !action };
}

/** `rest` after the scheme, and `masked`, the same with its envsubst placeholders masked (same offsets). */
function socketTarget(text: string, scheme: string | undefined, rest: string, masked: string): PassTarget {
  const pathStart = 'unix:'.length;
  const colon = indexOutsideActions(masked, ':', pathStart);
  const end = colon === -1 ? rest.length : colon;
  const socket = rest.slice(pathStart, end);
  const uri = colon === -1 ? undefined : rest.slice(colon + 1);
  const socketVariables = hasNginxVariable(masked.slice(pathStart, end));
  return {
    text,
    scheme,
    host: undefined,
    port: undefined,
    uri,
    socket,
    hasVariables: socketVariables,
    uriVariables: !socketVariables && uri !== undefined && hasNginxVariable(masked.slice(colon + 1)),
    ...templating(socket),
  };
}

/** Variables whose value starts with `/` or `?`: written right after a host, they cannot continue its name. */
const URI_VARIABLES = new Set(['request_uri', 'uri', 'document_uri', 'is_args']);
const VARIABLE_AT = /^\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/;

/**
 * Where the URI part starts in `rest` (after the scheme): the first `/`, or a `$variable` right after a literal
 * host[:port] (see the header). -1 when there is no URI part.
 */
function uriStart(rest: string): number {
  const slash = indexOutsideActions(rest, '/');
  const dollar = indexOutsideActions(rest, '$');
  if (dollar <= 0 || (slash !== -1 && slash < dollar)) return slash;
  const hostPort = rest.slice(0, dollar);
  if (hasTemplateAction(hostPort)) return slash;
  const { host, port } = splitHostPort(hostPort);
  if (host === '' || host.endsWith(':')) return slash;
  const name = VARIABLE_AT.exec(rest.slice(dollar));
  const variable = (name?.[1] ?? name?.[2])?.toLowerCase();
  if (port !== undefined) return /^\d+$/.test(port) ? dollar : slash;
  return variable !== undefined && URI_VARIABLES.has(variable) ? dollar : slash;
}

/**
 * The length of an envsubst placeholder that stands for the scheme: `${UPSTREAM_SCHEME}backend` starts with one, has
 * no `://` of its own, and a host follows right after it, so the placeholder must render to `http://` or the like
 * (proxy_pass takes no URL without a scheme). 0 otherwise: `${BACKEND}`, `${BACKEND}:8080`, `${BACKEND}/api` have
 * the placeholder in the host.
 */
function schemePlaceholderLength(text: string, masked: string): number {
  const first = placeholderRanges(text)[0];
  if (!first || first[0] !== 0 || masked.includes('://')) return 0;
  return /^[A-Za-z0-9[]/.test(text.slice(first[1])) ? first[1] : 0;
}

export function parsePassTarget(text: string): PassTarget {
  // Offsets are read on `masked` (envsubst placeholders as `XXX`, no `$` in them), values taken from `text`.
  const masked = maskPlaceholders(text);
  const schemeMatch = SCHEME.exec(masked);
  const separator = masked.indexOf('://');
  if (!schemeMatch && separator > 0 && hasNginxVariable(masked.slice(0, separator))) {
    // `$scheme://$host`: nothing about the target is static.
    const unknown = { host: undefined, port: undefined, uri: undefined, socket: undefined };
    return { text, scheme: undefined, ...unknown, hasVariables: true, uriVariables: false, ...templating(text) };
  }
  // `${S3_SERVER_PROTO}://storage_urls`, `${UPSTREAM_SCHEME}backend`: a scheme filled in at container start.
  const schemeEnd = schemeMatch ? schemeMatch[0].length : schemePlaceholderLength(text, masked);
  const scheme = schemeMatch && !hasPlaceholder(text.slice(0, schemeEnd)) ? schemeMatch[1]!.toLowerCase() : undefined;
  const rest = text.slice(schemeEnd);
  const restMasked = masked.slice(schemeEnd);
  if (restMasked.startsWith('unix:')) return socketTarget(text, scheme, rest, restMasked);
  const start = uriStart(restMasked);
  const end = start === -1 ? rest.length : start;
  const { host, port } = splitHostPort(rest.slice(0, end));
  const uri = start === -1 ? undefined : rest.slice(start);
  const hasVariables = hasNginxVariable(restMasked.slice(0, end));
  return {
    text,
    scheme,
    host: host === '' ? undefined : normaliseTemplateText(host),
    port: port === undefined || port === '' ? undefined : port,
    uri,
    socket: undefined,
    hasVariables,
    uriVariables: !hasVariables && uri !== undefined && hasNginxVariable(restMasked.slice(start)),
    ...templating(rest.slice(0, end)),
  };
}

function resolve(workspace: Workspace, scope: Scope, target: PassTarget | undefined): PassResolution {
  if (!target) return { kind: 'unresolved', reason: 'no-target' };
  if (target.hasVariables) return { kind: 'unresolved', reason: 'variables' };
  if (target.socket !== undefined || target.port !== undefined) return { kind: 'implicit' };
  if (target.host === undefined) return { kind: 'unresolved', reason: 'no-target' };
  const named = findUpstreamsFor(workspace, target.host, scope.root);
  if (named.length > 0) return { kind: 'upstream', upstreams: named };
  return target.templated ? { kind: 'unresolved', reason: 'template' } : { kind: 'implicit' };
}

function isPassName(name: string): name is PassDirectiveName {
  // Every pass name ends with `_pass`: the other statements (almost all) are told apart without a property lookup.
  return name.endsWith('_pass') && Object.hasOwn(PASS_PROTOCOLS, name);
}

function collect(workspace: Workspace): Pass[] {
  const found: Pass[] = [];
  // Indexed loops: this reads every statement of the run once, before V8 has optimized it (for-of allocates then).
  const scopes = allScopes(workspace);
  for (let s = 0; s < scopes.length; s++) {
    const scope = scopes[s]!;
    const statements = scope.statements;
    for (let i = 0; i < statements.length; i++) {
      const directive = statements[i]!;
      if (!isPassName(directive.name)) continue;
      const argument = directive.args[0];
      const target = argument ? parsePassTarget(argument.value) : undefined;
      found.push({
        directive,
        name: directive.name,
        protocol: PASS_PROTOCOLS[directive.name],
        scope,
        target,
        resolution: resolve(workspace, scope, target),
      });
    }
  }
  return found;
}

export const passes: (workspace: Workspace) => readonly Pass[] = perWorkspace(collect);

/** Each upstream's users, in passes() order: one index per workspace, since every upstream asks. */
function indexUsers(workspace: Workspace): Map<Upstream, Pass[]> {
  const users = new Map<Upstream, Pass[]>();
  for (const pass of passes(workspace)) {
    if (pass.resolution.kind !== 'upstream') continue;
    for (const upstream of new Set(pass.resolution.upstreams)) {
      const list = users.get(upstream);
      if (list) list.push(pass);
      else users.set(upstream, [pass]);
    }
  }
  return users;
}

const usersIndex = perWorkspace(indexUsers);
const NO_USERS: readonly Pass[] = [];

export function usersOf(workspace: Workspace, upstream: Upstream): readonly Pass[] {
  return usersIndex(workspace).get(upstream) ?? NO_USERS;
}
