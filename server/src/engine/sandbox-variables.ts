// `prove`'s passes through variables (`set $upstream_app synapse; proxy_pass $upstream_proto://$upstream_app:80;`):
// when every variable of the target's address (scheme, host, port) has a value nginx knows without DNS for the
// request prove sends, the sandbox points the pass at the stub by rewriting where the host and port come from: the
// `set` of the variable (its value becomes 127.0.0.1, the port the stub's) or the literal text of the pass. The pass
// keeps its variables, so nginx still builds its URL per request as it does for the user; an IP literal needs no
// resolver, and the sandbox has none. A host that names an upstream{} (no port) is that upstream at run time, whose
// members are the stub already: nothing is rewritten. Anything whose value only the request or the run time gives
// (a map of $http_*, a set inside if, a header) is skipped with the reason.
//
// The rewrite module's order decides a value: the server's own `set`s run first, then those of the location the
// request ends in (nested locations do not run their parents': one set there is skipped, never guessed).
import type { Pass } from '../analysis/passes.js';
import { statementsNamed, type Scope } from '../analysis/scopes.js';
import { findUpstreamsFor, type Upstream } from '../analysis/upstreams.js';
import type { Argument, Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { serverName } from './sandbox-edits.js';

/** A replacement of `[start, end)` (file offsets) in `directive`'s file. */
export interface TargetEdit {
  directive: Directive;
  start: number;
  end: number;
  text: string;
}

export type VariableTarget =
  /** Measured: `evaluated` is the address nginx would use (`http://synapse:8008`); `edits` point it at the stub. */
  | { kind: 'known'; evaluated: string; scheme: string | undefined; upstreams: readonly Upstream[]; edits: TargetEdit[] }
  | { kind: 'unknown'; reason: string };

/** A piece of the target text: literal text at `offset` in the argument's value, or a variable and its value. */
interface Piece {
  /** Where this piece's value sits in the evaluated address. */
  start: number;
  value: string;
  literalAt?: number;
  set?: Argument;
}

const VARIABLE = /\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;
/** Variables whose value starts the URI (`http://$app$request_uri`): the address ends before them. */
const URI_VARIABLES = new Set(['request_uri', 'uri', 'document_uri', 'is_args']);
/** Directives whose block or arguments define a variable from request data. */
const DEFINERS: Record<string, (directive: Directive) => string | undefined> = {
  map: (directive) => directive.args[1]?.value,
  geo: (directive) => directive.args[directive.args.length - 1]?.value,
  split_clients: (directive) => directive.args[1]?.value,
  perl_set: (directive) => directive.args[0]?.value,
  js_set: (directive) => directive.args[0]?.value,
};

function where(directive: Directive): string {
  return `${directive.file.path}:${directive.span.start.line + 1}`;
}

function setsOf(scope: Scope, name: string): Directive[] {
  return statementsNamed(scope, 'set').filter((set) => set.args[0]?.value.toLowerCase() === `$${name}`);
}

/** A `set $name` inside an if of `scope` (at any depth): the value depends on the request. */
function conditionalSet(scope: Scope, name: string): Directive | undefined {
  for (const child of scope.children) {
    if (child.context !== 'if') continue;
    const found = setsOf(child, name)[0] ?? conditionalSet(child, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * The scheme of the request nginx gets from prove: https when the server's first listen (the one the sandbox keeps,
 * engine/sandbox-config.ts) is ssl, or with `ssl on`.
 */
function serverScheme(server: Scope): string {
  if (statementsNamed(server, 'ssl').some((ssl) => ssl.args[0]?.value === 'on')) return 'https';
  const first = statementsNamed(server, 'listen')[0];
  return first?.args.slice(1).some((arg) => arg.value === 'ssl') ? 'https' : 'http';
}

type Value = { value: string; set?: Argument } | { reason: string };

function valueOf(name: string, location: Scope, server: Scope, host: string): Value {
  const lower = name.toLowerCase();
  for (let scope = server.parent; scope; scope = scope.parent) {
    for (const statement of scope.statements) {
      const defines = DEFINERS[statement.name]?.(statement);
      if (defines?.toLowerCase() === `$${lower}`) return { reason: `$${name} is set by ${statement.name} at ${where(statement)}: its value depends on the request` };
    }
  }
  const inIf = conditionalSet(location, lower) ?? conditionalSet(server, lower);
  if (inIf) return { reason: `$${name} is set inside if at ${where(inIf)}: its value depends on the request` };
  for (let scope = location.parent; scope && scope !== server; scope = scope.parent) {
    const outer = setsOf(scope, lower)[0];
    if (outer) return { reason: `$${name} is set in an enclosing location at ${where(outer)}, which nginx does not run for a nested one` };
  }
  const set = setsOf(location, lower).pop() ?? setsOf(server, lower).pop();
  if (set) {
    const argument = set.args[1];
    if (!argument || argument.variables.length > 0 || argument.templated) return { reason: `$${name} is set from other variables at ${where(set)}` };
    return { value: argument.value, set: argument };
  }
  if (lower === 'scheme') return { value: serverScheme(server) };
  if (lower === 'host' || lower === 'http_host') return { value: host.toLowerCase() };
  if (lower.startsWith('http_') || lower.startsWith('cookie_') || lower.startsWith('arg_')) {
    return { reason: `$${name} comes from the request: known at run time only` };
  }
  return { reason: `$${name} is not set by a literal set for this location: known at run time only` };
}

/** The offset in the file of `offset` in the argument's value, or undefined when escapes make them differ. */
function fileOffset(argument: Argument, offset: number): number | undefined {
  if (argument.raw.includes('\\')) return undefined;
  return argument.span.startOffset + (argument.quoted ? 1 : 0) + offset;
}

/**
 * What the pass's address evaluates to for the request prove sends (Host `host`), and the edits that point it at
 * 127.0.0.1 and the port of the stub for its scheme (`portFor`); or why it cannot be known without the request or DNS.
 */
export function variableTarget(pass: Pass, workspace: Workspace, host: string, portFor: (scheme: string | undefined) => number): VariableTarget {
  const argument = pass.directive.args[0];
  const location = pass.scope;
  let server: Scope | undefined = location.parent;
  while (server && server.context !== 'server') server = server.parent;
  if (!argument || !server || location.context !== 'location') return { kind: 'unknown', reason: 'target set through variables outside a location' };
  const unknown = (reason: string): VariableTarget => ({ kind: 'unknown', reason: `target set through variables: ${reason}` });
  const text = argument.value;
  const pieces: Piece[] = [];
  let evaluated = '';
  let last = 0;
  let ended = false;
  const hasScheme = pass.name === 'proxy_pass';
  // The address ends at the first `/` after `://` (proxy_pass), or a URI variable once a host is there.
  const addressEnded = (): boolean => hasScheme && /:\/\/[^/]+\//.test(evaluated);
  const literal = (from: number, to: number): void => {
    if (to <= from) return;
    pieces.push({ start: evaluated.length, value: text.slice(from, to), literalAt: from });
    evaluated += text.slice(from, to);
  };
  for (const match of text.matchAll(VARIABLE)) {
    literal(last, match.index);
    last = match.index + match[0].length;
    ended = addressEnded();
    const name = match[1] ?? match[2]!;
    ended ||= hasScheme && URI_VARIABLES.has(name.toLowerCase()) && /:\/\/[^/]+$/.test(evaluated);
    if (ended) break;
    const value = valueOf(name, location, server, host);
    if ('reason' in value) return unknown(value.reason);
    pieces.push({ start: evaluated.length, value: value.value, set: value.set });
    evaluated += value.value;
  }
  if (!ended) literal(last, text.length);
  const schemeMatch = hasScheme ? /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(evaluated) : null;
  if (hasScheme && !schemeMatch) return unknown(`${evaluated} has no scheme nginx accepts`);
  const addressStart = schemeMatch ? schemeMatch[0].length : 0;
  const slash = hasScheme ? evaluated.indexOf('/', addressStart) : -1;
  const address = evaluated.slice(addressStart, slash === -1 ? evaluated.length : slash);
  const scheme = schemeMatch?.[1]!.toLowerCase();
  const shown = evaluated.slice(0, addressStart + address.length);
  if (address.startsWith('unix:') || address === '') return unknown(`${shown}: a socket or no host through variables is not measured yet`);
  const colon = address.startsWith('[') ? address.indexOf(':', address.indexOf(']')) : address.lastIndexOf(':');
  const hostPart = colon === -1 ? address : address.slice(0, colon);
  const portPart = colon === -1 ? undefined : address.slice(colon + 1);
  if (portPart !== undefined && !/^\d+$/.test(portPart)) return unknown(`${shown}: port ${portPart} is not a number`);
  const upstreams = portPart === undefined ? findUpstreamsFor(workspace, hostPart, location.root) : [];
  if (upstreams.length > 0) return { kind: 'known', evaluated: shown, scheme, upstreams, edits: [] };
  const hostStart = addressStart;
  const hostEnd = hostStart + hostPart.length;
  const portEnd = hostStart + address.length;
  const holder = (at: number): Piece | undefined => pieces.find((piece) => piece.start <= at && at < piece.start + piece.value.length);
  const hostPiece = holder(hostStart);
  const portPiece = portPart === undefined ? hostPiece : holder(hostEnd + 1);
  if (!hostPiece || hostPiece !== holder(hostEnd - 1)) return unknown(`${shown}: the host is built from several parts`);
  if (!portPiece || portPiece !== holder(portEnd - 1)) return unknown(`${shown}: the port is built from several parts`);
  const port = portFor(scheme);
  const edits: TargetEdit[] = [];
  const replace = (piece: Piece, from: number, to: number, replacement: string): string | undefined => {
    const source = piece.set ?? argument;
    const offset = piece.set ? 0 : piece.literalAt!;
    if (!piece.set && piece.literalAt === undefined) return `${shown}: the host comes from a variable nginx sets itself; it would be resolved at run time`;
    const start = fileOffset(source, offset + from - piece.start);
    const end = fileOffset(source, offset + to - piece.start);
    if (start === undefined || end === undefined) return `${shown}: written with escapes`;
    const directive = piece.set ? findSet(location, server, piece.set) : pass.directive;
    if (!directive) return `${shown}: its set is not in this server`;
    edits.push({ directive, start, end, text: replacement });
    return undefined;
  };
  const problem =
    hostPiece === portPiece
      ? replace(hostPiece, hostStart, portEnd, `127.0.0.1:${port}`)
      : (replace(hostPiece, hostStart, hostEnd, '127.0.0.1') ?? replace(portPiece, hostEnd + 1, portEnd, String(port)));
  if (problem !== undefined) return unknown(problem);
  return { kind: 'known', evaluated: shown, scheme, upstreams: [], edits };
}

function findSet(location: Scope, server: Scope, argument: Argument): Directive | undefined {
  return [...statementsNamed(location, 'set'), ...statementsNamed(server, 'set')].find((set) => set.args[1] === argument);
}

/** Every pass through variables of `all`, evaluated for the request prove sends its server (Host: its server_name). */
export function variableTargets(
  workspace: Workspace,
  all: readonly Pass[],
  portFor: (pass: Pass, scheme: string | undefined) => number,
): Map<Directive, VariableTarget> {
  const found = new Map<Directive, VariableTarget>();
  for (const pass of all) {
    if (pass.resolution.kind !== 'unresolved' || pass.resolution.reason !== 'variables') continue;
    let server = pass.scope.parent;
    while (server && server.context !== 'server') server = server.parent;
    const host = server?.block ? serverName(server.block) : 'localhost';
    found.set(pass.directive, variableTarget(pass, workspace, host, (scheme) => portFor(pass, scheme)));
  }
  return found;
}

/** The edits variable targets made, by place (`path:start:end`): one edit per place, and a second, different one is a clash. */
export class TargetEdits {
  private readonly made = new Map<string, string>();

  clash(edits: readonly TargetEdit[]): TargetEdit | undefined {
    return edits.find((edit) => (this.made.get(key(edit)) ?? edit.text) !== edit.text);
  }

  /** The edits not made yet, now recorded. */
  claim(edits: readonly TargetEdit[]): TargetEdit[] {
    const fresh = edits.filter((edit) => !this.made.has(key(edit)));
    for (const edit of fresh) this.made.set(key(edit), edit.text);
    return fresh;
  }
}

function key(edit: TargetEdit): string {
  return `${edit.directive.file.path}:${edit.start}:${edit.end}`;
}
