// Turning a proxy_pass to a literal address into a proxy_pass to an upstream{} with keepalive: the address facts, the
// upstream to use (an existing one or a new one) and the rewritten pass.
//
//   implicitTarget(pass)                     the address facts of an implicit http(s) target, or undefined
//   looksLikeUpstreamName(pass)              `http://backend`: probably an upstream{} defined elsewhere (no fix)
//   reusableUpstream(ws, pass, target)       an upstream holding exactly that one server, defined before the pass
//   upstreamName(ws, target)                 a new, unused, valid name: `backend_127_0_0_1_3000`
//   upstreamSpot(pass)                       where a new block goes: at http level, before the first `server` of
//                                            the file that holds the pass's server (before the outermost template
//                                            action around it, so a template renders it once); undefined outside
//                                            http, a NoFix where placement.ts refuses an upstream (unknown context)
//                                            or no line of its own is free (a server after an action on its line)
//   insertUpstreamEdit(pass, name, t, n, r)  the block written there (or upstreamSpot's undefined or NoFix); for a
//                                            run-time target, with `zone` and `server ... resolve` (and `r`, a
//                                            `resolver` line, when the http level has none the block inherits)
//   rewritePassEdit(pass, name, target)      `proxy_pass <scheme>://<name><uri>;`, quotes kept
//
// Decisions:
// - Name: `backend_` + the address with every run of other characters than [a-z0-9] turned into `_` (lower case):
//   `backend_127_0_0_1_3000`, `backend_unix_run_app_sock`, `backend_api_example_com_443`. Deterministic, valid as
//   a URL host for nginx, and `_2`, `_3`... when the name is taken anywhere in the workspace.
// - Reuse: an upstream{} whose only member is `server <same address>` (host compared without case, default ports made
//   explicit: 80 for `server`, 80/443 for http/https passes) is used as it is, when nginx reads it before the pass's
//   server{}: at the same http level (includes expanded, so in nginx's read order), earlier. nginx resolves a
//   proxy_pass name while reading: a name not yet defined makes an implicit upstream per port, and only one of them
//   becomes the later upstream{} (`http://app0` next to an existing `https://app0` leaves the other one to DNS:
//   "host not found in upstream"). A later block is not reused; a new one is inserted before the server instead.
//   Reuse is also what makes fix-all converge: the second pass to an address reuses the block the first one's fix
//   inserted (before the first server of its file, so before every pass there).
// - The server keeps the address as written; an https pass without a port gets `:443` (a `server` defaults to 80).
// - Run-time targets (`runtime`): a host name in a URL with variables (`https://fonts.gstatic.com/s/$file`,
//   `http://storage:10000$request_uri`) is resolved by nginx per request, with `resolver`. A plain `server` would
//   pin it at start-up; their block is `zone <name> 64k; server <address> resolve; keepalive N;` (nginx >= 1.27.3;
//   the rule decides whether that is offered). An IP address or a socket needs no resolving: not run-time. Only
//   an upstream whose single server already has `resolve` is reused for them.
import { detectIndentUnit, insertLineBefore, lineStartOf, replaceSpan } from './edits.js';
import { parsePassTarget, type Pass } from '../analysis/passes.js';
import { perWorkspace } from '../analysis/per-workspace.js';
import { statementsNamed, unfollowedIncludes, type Scope } from '../analysis/scopes.js';
import { findUpstreams, upstreams, type Upstream } from '../analysis/upstreams.js';
import type { TextEdit } from '../util/types.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { enclosingGuardsWithin } from '../analysis/template-blocks.js';
import { NoFix, refusal } from './placement.js';

export interface ImplicitTarget {
  /** `http` or `https`, as written. */
  scheme: string;
  /** The `server` address: `127.0.0.1:3000`, `unix:/run/app.sock`, `example.com:443`. */
  address: string;
  /** Comparison form of the address: lower-cased host with its port, or the socket. */
  key: string;
  /** What `$proxy_host` was: the Host header nginx sent and the default TLS name (`localhost` for a socket). */
  proxyHost: string;
  /** The host alone (no port), for proxy_ssl_name; undefined for a socket. */
  host: string | undefined;
  /** The URI part as written (`/api/`), or ''. */
  uri: string;
  /** True for a `unix:` socket. */
  socket: boolean;
  /**
   * A host name in a URL with variables: nginx resolves it per request (with `resolver`), unless an upstream{} has
   * that name. False for an IP address or a socket (nothing to resolve) and for URLs without variables.
   */
  runtime: boolean;
}

/** `10.0.0.1`, `[::1]`: an address nginx never resolves. */
function isIpLiteral(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** The address facts of an implicit http(s) target; with an envsubst placeholder in it too (`${HOST}:8080`). */
export function implicitTarget(pass: Pass): ImplicitTarget | undefined {
  const target = pass.target;
  const text = pass.directive.args[0]?.value;
  const written = text ? SCHEME.exec(text)?.[1] : undefined;
  if (!target || !written || (target.scheme !== 'http' && target.scheme !== 'https')) return undefined;
  // An envsubst placeholder in the address is filled in at container start: still a literal address to nginx.
  if (target.hasVariables || (target.templated && !target.envsubst)) return undefined;
  const uri = target.uri ?? '';
  if (target.socket !== undefined) {
    const address = `unix:${target.socket}`;
    return { scheme: written, address, key: address, proxyHost: 'localhost', host: undefined, uri, socket: true, runtime: false };
  }
  if (!target.host) return undefined;
  const defaultPort = target.scheme === 'https' ? '443' : '80';
  const port = target.port ?? defaultPort;
  const address = target.port !== undefined || target.scheme === 'https' ? `${target.host}:${port}` : target.host;
  const proxyHost = Number(port) === Number(defaultPort) ? target.host : `${target.host}:${port}`;
  const key = `${target.host.toLowerCase()}:${Number(port)}`;
  const runtime = target.uriVariables && !isIpLiteral(target.host);
  return { scheme: written, address, key, proxyHost, host: target.host, uri, socket: false, runtime };
}

/** The comparison form of a `server` address inside an upstream{} (port 80 when none is written). */
function serverKey(server: Directive): string | undefined {
  const address = server.args[0];
  if (!address || address.templated || address.variables.length > 0) return undefined;
  if (address.value.startsWith('unix:')) return address.value;
  const parsed = parsePassTarget(`http://${address.value}`);
  if (!parsed.host || parsed.uri !== undefined) return undefined;
  return `${parsed.host.toLowerCase()}:${Number(parsed.port ?? '80')}`;
}

/**
 * True for `http://backend` (one label, no port, not localhost): most likely the name of an upstream{} defined in a
 * file that was not checked. A fix would replace it with a server nginx must resolve by DNS, so none is offered.
 */
export function looksLikeUpstreamName(pass: Pass): boolean {
  const target = pass.target;
  if (!target?.host || target.port !== undefined || target.socket !== undefined) return false;
  const host = target.host.toLowerCase();
  return !host.includes('.') && !host.startsWith('[') && host !== 'localhost';
}

/** Single-server upstreams that could be reused, by their server's key, in upstreams() order. */
function indexReusable(workspace: Workspace): Map<string, Upstream[]> {
  const byKey = new Map<string, Upstream[]>();
  for (const upstream of upstreams(workspace)) {
    if (upstream.templated || upstream.servers.length !== 1) continue;
    if (upstream.bodies.some((body) => unfollowedIncludes(body).length > 0)) continue;
    const server = upstream.servers[0]!;
    const flags = server.args.slice(1).map((argument) => argument.value);
    const key = serverKey(server);
    if (flags.includes('down') || flags.includes('backup') || key === undefined) continue;
    const list = byKey.get(key);
    if (list) list.push(upstream);
    else byKey.set(key, [upstream]);
  }
  return byKey;
}

// Every literal proxy_pass asks: one index per workspace keeps that linear in the number of upstreams.
const reusableByKey = perWorkspace(indexReusable);

// Every literal proxy_pass compares positions at its http level: index each level's statements once.
const positions = new WeakMap<Scope, Map<Directive, number>>();

/** Where each statement of `http` is read (includes expanded): the first place, for a file included twice. */
function positionsAt(http: Scope): Map<Directive, number> {
  let byStatement = positions.get(http);
  if (!byStatement) {
    byStatement = new Map();
    for (const [index, statement] of http.statements.entries()) {
      if (!byStatement.has(statement)) byStatement.set(statement, index);
    }
    positions.set(http, byStatement);
  }
  return byStatement;
}

export function reusableUpstream(workspace: Workspace, pass: Pass, target: ImplicitTarget): Upstream | undefined {
  const levels = serverAndHttp(pass);
  if (!levels) return undefined;
  const order = positionsAt(levels.http);
  const server = order.get(levels.server.block!);
  if (server === undefined) return undefined;
  const candidates = reusableByKey(workspace).get(target.key) ?? [];
  // Only a block at the pass's own http level (so of its root) that nginx has read by the time it reads the server;
  // for a run-time target, only one that keeps resolving the name (a plain server would pin it at start-up).
  return candidates.find(
    (upstream) => (order.get(upstream.directive) ?? Infinity) < server && (!target.runtime || resolves(upstream)),
  );
}

function resolves(upstream: Upstream): boolean {
  return upstream.servers[0]!.args.slice(1).some((argument) => argument.value === 'resolve');
}

/** Prefix of the upstream names a fix creates. */
const GENERATED_UPSTREAM_PREFIX = 'backend_';

/** Each name tried is a recorded cross-root lookup (findUpstreams): a name taken in any root is skipped. */
export function upstreamName(workspace: Workspace, target: ImplicitTarget): string {
  const slug = target.address.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  const base = `${GENERATED_UPSTREAM_PREFIX}${slug}`;
  let name = base;
  for (let n = 2; findUpstreams(workspace, name).length > 0; n++) name = `${base}_${n}`;
  return name;
}

// Every literal proxy_pass asks for the first server block of its file at its http level, which may hold thousands of
// statements from as many included files: index each level once.
const firstServers = new WeakMap<Scope, Map<ConfigFile, Directive>>();

function firstServerOf(http: Scope, file: ConfigFile): Directive | undefined {
  let byFile = firstServers.get(http);
  if (!byFile) {
    byFile = new Map();
    for (const statement of statementsNamed(http, 'server')) {
      if (statement.blockSpan && !byFile.has(statement.file)) byFile.set(statement.file, statement);
    }
    firstServers.set(http, byFile);
  }
  return byFile.get(file);
}

/** The server scope around the pass and the http scope around that; undefined outside http. */
function serverAndHttp(pass: Pass): { server: Scope; http: Scope } | undefined {
  for (let scope: Scope | undefined = pass.scope; scope; scope = scope.parent) {
    if (scope.context === 'server' && scope.parent?.context === 'http' && scope.block) {
      return { server: scope, http: scope.parent };
    }
  }
  return undefined;
}

function upstreamText(name: string, target: ImplicitTarget, unit: string, count: number, resolver?: string): string {
  const body = target.runtime
    ? [...(resolver ? [resolver] : []), `zone ${name} 64k;`, `server ${target.address} resolve;`]
    : [`server ${target.address};`];
  return [`upstream ${name} {`, ...[...body, `keepalive ${count};`].map((line) => unit + line), '}', ''].join('\n');
}

/** The start of the line at `lineStart`, moved up over the whole-line comments right above it (they describe it). */
function aboveComments(text: string, lineStart: number): number {
  let start = lineStart;
  while (start > 0) {
    const previous = lineStartOf(text, start - 1);
    if (!/^[ \t]*#/.test(text.slice(previous, start))) break;
    start = previous;
  }
  return start;
}

/** Where a new upstream{} goes: a line of its own at `at`, or (an indented first server) the line before `before`. */
export type UpstreamSpot = { file: ConfigFile; at: number; indent: string } | { file: ConfigFile; before: Directive };

/**
 * Where insertUpstreamEdit() puts the block for `pass`, decided without writing it: undefined outside http (or a
 * server indented after a template action, where no line is safe), a NoFix where placement.ts refuses an upstream.
 */
export function upstreamSpot(pass: Pass): UpstreamSpot | NoFix | undefined {
  const found = serverAndHttp(pass);
  if (!found) return undefined;
  const refused = refusal(found.http, 'upstream');
  if (refused) return refused;
  const own = found.server.block!;
  const first = firstServerOf(found.http, own.file) ?? own;
  const file = first.file;
  const httpBlock = found.http.block;
  const guards = httpBlock ? enclosingGuardsWithin(first, httpBlock) : first.guards;
  // `{{ range }} server { ... } {{ end }}`: the block goes before the action, or it would be rendered once per item.
  const start = guards[0]?.control.span.startOffset ?? first.span.startOffset;
  const lineStart = lineStartOf(file.text, start);
  const indent = file.text.slice(lineStart, start);
  if (indent.trim() !== '') {
    return guards.length === 0 ? { file, before: first } : new NoFix('the first server here follows a template action on its line: no line for an upstream{}');
  }
  return { file, at: aboveComments(file.text, lineStart), indent };
}

export function insertUpstreamEdit(
  pass: Pass,
  name: string,
  target: ImplicitTarget,
  count: number,
  resolver?: string,
): TextEdit | NoFix | undefined {
  const spot = upstreamSpot(pass);
  if (!spot || spot instanceof NoFix) return spot;
  const text = upstreamText(name, target, detectIndentUnit(spot.file), count, resolver);
  if ('before' in spot) return insertLineBefore(spot.before, text);
  const lines = text.split('\n').map((line) => (line === '' ? '' : spot.indent + line));
  return { file: spot.file.path, startOffset: spot.at, endOffset: spot.at, newText: lines.join(spot.file.eol) + spot.file.eol };
}

export function rewritePassEdit(pass: Pass, name: string, target: ImplicitTarget): TextEdit {
  const argument = pass.directive.args[0]!;
  const url = `${target.scheme}://${name}${target.uri}`;
  const quote = argument.quoted === false ? '' : argument.quoted;
  return replaceSpan(pass.directive.file, argument.span, `${quote}${url}${quote}`);
}
