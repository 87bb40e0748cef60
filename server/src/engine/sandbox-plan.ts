// `prove`'s request plan: for each pass, the request that reaches it in the sandbox (Host from the server's
// server_name, path from a prefix or `=` location, or one generated from a regex location's pattern), or why none
// is sent. proxy_pass (http://, https://), fastcgi_pass, uwsgi_pass, scgi_pass and grpc_pass are measured, to an
// upstream{}, an address or a unix: socket; everything else is skipped with its reason.
import { lookupDirective } from '../analysis/effective-lookup.js';
import type { Pass } from '../analysis/passes.js';
import { effectiveHeaderSet, forwardsUpgrade } from '../analysis/proxy-state.js';
import { websocketOnly } from '../analysis/websocket-only.js';
import type { Workspace } from '../model/workspace.js';
import type { Directive } from '../model/types.js';
import { namedLocationRequest } from './named-location.js';
import { regexRequestPath } from './regex-path.js';
import { stubKind } from './sandbox-protocols.js';
import type { VariableTarget } from './sandbox-variables.js';

export interface PlannedLocation {
  file: string;
  /** 1-based line of the pass directive. */
  line: number;
  /** The server_name sent as Host (`localhost` when it has none a client can send). */
  server: string;
  /** The location as written (`= /api`, `/`), or the pass's enclosing block when not in a location. */
  location: string;
  /** The sandbox port of the server. */
  port: number;
  /** The request path. */
  path: string;
  /** Why no request is sent, or null when measured. */
  skipped: string | null;
  /** 1-based first and last line of the enclosing location (of the pass when there is none). */
  lines: [number, number];
  /** The location carries WebSockets (forwards `Upgrade`, or is WebSocket-only): one upgrade is sent too. */
  websocket: boolean;
  /** A pass through variables: the address they give for this request (`http://synapse:8008`). */
  variableTarget?: string;
  /** A named location: the location whose request reaches it, and how (`location /, try_files at app.conf:4`). */
  via?: string;
  /** A pass to a literal address or socket (nginx's implicit upstream, which keeps no connection): the target. */
  literalTarget?: string;
  /** The pass directive (`proxy_pass`, `grpc_pass`...). */
  pass: string;
  /** The requests go over TLS (the server listens with ssl; SNI is `server`). */
  tls: boolean;
  /** HTTP/2 for grpc_pass, and for every location of a cleartext HTTP/2 server; HTTP/1.1 otherwise. */
  protocol: 'HTTP/1.1' | 'HTTP/2';
  /** The requests are gRPC calls (POST, application/grpc, one empty message). */
  grpc: boolean;
}

export interface PlanServer {
  port: number;
  name: string;
}

/** The analysis's answer: the pass forwards the client's Upgrade (`$http_upgrade`), or is WebSocket-only. */
export function carriesWebsocket(workspace: Workspace, pass: Pass): boolean {
  if (pass.name !== 'proxy_pass') return false;
  const lookup = lookupDirective(workspace, pass.scope, 'proxy_set_header');
  if (forwardsUpgrade(effectiveHeaderSet(lookup.kind === 'found' ? lookup : undefined))) return true;
  return websocketOnly(workspace, pass.scope, { nginxVersion: undefined });
}

function enclosingLocation(directive: Directive): { location: Directive | undefined; inIf: boolean } {
  let inIf = false;
  for (let parent = directive.parent; parent; parent = parent.parent) {
    if (parent.name === 'location') return { location: parent, inIf };
    if (parent.name === 'if' || parent.name === 'limit_except') inIf = true;
  }
  return { location: undefined, inIf };
}

function requestPath(location: Directive): { path: string } | { skipped: string } {
  const [first, second] = location.args;
  if (!first) return { skipped: 'location without a path' };
  const modifier = second ? first.value : '';
  const target = second ? second.value : first.value;
  if (modifier === '~' || modifier === '~*') return regexRequestPath(target, modifier === '~*');
  if (target.startsWith('@')) return { skipped: 'named location (reached only through what jumps to it)' };
  if (modifier !== '' && modifier !== '=' && modifier !== '^~') return { skipped: `location modifier ${modifier} not understood` };
  if (!target.startsWith('/') || /[\s?#]/.test(target)) return { skipped: 'location path cannot be sent as a request' };
  return { path: target };
}

function whyNotMeasured(directive: Directive, pass: Pass | undefined, variables: VariableTarget | undefined): string | null {
  const name = directive.name;
  if (!pass || !pass.target) return `${name} without a target`;
  let scheme = pass.target.scheme;
  if (pass.resolution.kind === 'unresolved') {
    if (pass.resolution.reason !== 'variables') return 'target not known until the template is rendered';
    if (!variables) return 'target set through variables: nginx would resolve it at run time, which prove never does';
    if (variables.kind === 'unknown') return variables.reason;
    scheme = variables.scheme;
  }
  const kind = stubKind(pass, scheme);
  if (typeof kind !== 'string') return kind.skipped;
  return null;
}

/**
 * The plan for one pass directive inside `server` (`unreachable`: why the sandbox cannot reach its stub, if so). Its
 * `tls` and `protocol` are the server's, set once the whole server is read.
 */
export function planLocation(
  directive: Directive,
  pass: Pass | undefined,
  server: PlanServer,
  websocket = false,
  unreachable: string | null = null,
  variables?: VariableTarget,
): PlannedLocation {
  const { location, inIf } = enclosingLocation(directive);
  const base = {
    file: directive.file.path,
    line: directive.span.start.line + 1,
    server: server.name,
    location: location ? location.args.map((arg) => arg.raw).join(' ') : '(server)',
    port: server.port,
    path: '/',
    lines: [(location ?? directive).span.start.line + 1, (location ?? directive).span.end.line + 1] as [number, number],
    websocket,
    ...(variables?.kind === 'known' ? { variableTarget: variables.evaluated } : {}),
    ...(pass?.resolution.kind === 'implicit' && pass.target ? { literalTarget: pass.target.text } : {}),
    pass: directive.name,
    tls: false,
    protocol: 'HTTP/1.1' as const,
    grpc: directive.name === 'grpc_pass',
  };
  const notMeasured = whyNotMeasured(directive, pass, variables) ?? unreachable;
  if (notMeasured !== null) return { ...base, skipped: notMeasured };
  if (inIf) return { ...base, skipped: 'inside if or limit_except: the request may not take that branch' };
  if (!location) return { ...base, skipped: 'not inside a location read in the same file' };
  const named = location.args.length === 1 && location.args[0]!.value.startsWith('@');
  const request: { path: string; via?: string } | { skipped: string } =
    named && pass ? namedLocationRequest(pass.scope, requestPath) : requestPath(location);
  if ('skipped' in request) return { ...base, skipped: request.skipped };
  return { ...base, path: request.path, skipped: null, ...(request.via !== undefined ? { via: request.via } : {}) };
}
