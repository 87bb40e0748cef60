// What a proxy_pass to a literal address implied besides the connection, kept when the address becomes an upstream
// name. nginx derives three defaults from the proxy_pass URL's host, `$proxy_host`:
//   - the Host header (`proxy_set_header Host $proxy_host` is built in): `127.0.0.1:3000` would become
//     `backend_127_0_0_1_3000`, which host checks (Django's ALLOWED_HOSTS, Rails' host authorization) reject;
//   - the default `proxy_redirect` (Location headers starting with the proxy_pass URL are made relative);
//   - the TLS name (`proxy_ssl_name $proxy_host`) used for SNI and certificate verification.
// So the fix states the old values explicitly where nothing states them yet.
//
//   identityPlan(ws, pass, options)                whether it can be done (undefined: no fix), nothing written
//   identityWithheld(ws, pass, target, options)    why not, in words for the finding (undefined: it can be done,
//                                                  every identity line it would need included)
//   hiddenReason(ws, scope, name)                  `an include that could not be read (x.conf) may set <name> here`
//                                                  when an unseen level may define `name` (effective-lookup.ts)
//   targetIdentityEdits(ws, pass, target, options) -> { edits, setsConnection } | undefined
//
// Decisions:
// - Everything goes into the pass's location (pass-home.ts), before its first proxy_pass, where proxy-reuse.ts puts
//   `proxy_http_version 1.1` (the insertions merge). Never on a shared level: another location there proxies to
//   another address. A location with a second proxy_pass (say one in an `if`) gets nothing, and no fix is offered:
//   the other pass would inherit this one's Host and redirect.
// - Host, only when the effective header set has none. proxy_set_header is inherited as a whole set, so:
//   no set anywhere -> `proxy_set_header Host ...;` alone (proxy-reuse.ts adds Connection at the same spot);
//   the location's own set -> the line joins it;
//   an inherited set -> the set is copied down with Host added (and, before 1.29.7, Connection cleared: `""`, or the
//   upgrade map's variable when the set forwards Upgrade; a literal `close`, or a literal `upgrade`, copied as
//   cleared: the rule reports no WebSocket-only location, analysis/websocket-only.ts). `setsConnection`
//   then tells the caller not to ask proxy-reuse.ts for a Connection edit on the level above.
//   A set with template-guarded members cannot be copied faithfully: undefined (no fix).
// - Levels the model cannot fully see (an include that pulled in nothing, a syntax problem: effective-lookup.ts)
//   make the whole fix unsafe: undefined. Debian's `include proxy_params;` is known to set Host. The same holds for
//   proxy_redirect and proxy_ssl_name where the fix would write them: identityWithheld() says which include.
// - proxy_redirect, only when no level defines one (any definition replaces the default) and the URL has no
//   variables (then nginx has no default): `proxy_redirect <url>/ /;`, or `<url> <location>` when the URL has a URI
//   part, exactly nginx's default. Not for sockets (their Host was `localhost`; no redirect names the socket).
// - proxy_ssl_name <host>, for https, when none is set.
// - `$proxy_host` used explicitly elsewhere (a header value, a cache key) does change: that is the new name's job.
import { effectiveProxyHeaders } from '../analysis/inheritance.js';
import { insertLineBefore } from './edits.js';
import type { Pass } from '../analysis/passes.js';
import { guardsWithin, type Scope } from '../analysis/scopes.js';
import { hasModernKeepaliveDefaults } from '../analysis/versions.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { ensureUpgradeMap, upgradeMapRefusal } from './connection-map.js';
import { headerKeysOf, lookupDirective } from '../analysis/effective-lookup.js';
import type { ImplicitTarget } from './implicit-upstream.js';
import { passHome, type PassHome } from './pass-home.js';
import { NoFix, refusal } from './placement.js';
import { forwardsUpgrade, unknownCause } from '../analysis/proxy-state.js';
import { emptyString } from './quote-style.js';

export interface TargetIdentity {
  edits: TextEdit[];
  /** The header set was copied into the location with Connection settled: no Connection edit elsewhere. */
  setsConnection: boolean;
}

interface HeaderLines {
  lines: string[];
  edits: TextEdit[];
  setsConnection: boolean;
}

/** `"..."` around a value nginx would otherwise split or end early. */
function word(value: string): string {
  return /^[^\s;{}"'#]+$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

/** A literal Connection value a copied set must not keep: `close` (no reuse) or `upgrade` (every request upgrades). */
function isClosing(directive: Directive): boolean {
  const value = directive.args[1];
  if (directive.args[0]?.value.toLowerCase() !== 'connection') return false;
  if (!value || value.templated || value.variables.length > 0) return false;
  const literal = value.value.trim().toLowerCase();
  return literal === 'close' || literal === 'upgrade';
}

/** The Connection value to write in a copied set: `""`, or the upgrade map's variable when Upgrade is forwarded. */
function cleared(workspace: Workspace, pass: Pass, home: PassHome, options: ResolvedOptions): { text: string; edits: TextEdit[] } {
  if (!forwardsUpgrade(effectiveProxyHeaders(pass.scope))) return { text: emptyString(home.anchor.file), edits: [] };
  const map = ensureUpgradeMap(workspace, { file: home.anchor.file, scope: home.location }, options);
  // headerPlan() made sure a map is given.
  return map && !(map instanceof NoFix) ? { text: map.variable, edits: map.edits } : { text: '', edits: [] };
}

/** What happens to the header set, decided before any line is written. */
type HeaderPlan =
  | { kind: 'has-host' }
  | { kind: 'add-host' }
  | { kind: 'copy'; copied: Directive[]; connection: Directive[]; needsValue: boolean };

function headerPlan(workspace: Workspace, pass: Pass, home: PassHome, options: ResolvedOptions): HeaderPlan | NoFix {
  const found = lookupDirective(workspace, pass.scope, 'proxy_set_header');
  if (found.kind === 'unknown') return new NoFix(hiddenReason(workspace, pass.scope, 'proxy_set_header')!);
  if (found.kind === 'found' && found.conditional) return new NoFix('the proxy_set_header lines here are all under template conditions');
  if (found.kind === 'found' && headerKeysOf(found).has('host')) return { kind: 'has-host' };
  if (found.kind === 'none' || found.level === home.location) return { kind: 'add-host' };
  const copied = found.directives.filter((directive) => directive.args.length > 0);
  // A guarded header would lose its guard; a template action from another file may name that file's variables.
  const faithful = copied.every(
    (d) => guardsWithin(d, found.level).length === 0 && (d.file === home.anchor.file || !d.args.some((a) => a.templated)),
  );
  if (!faithful) return new NoFix('the inherited proxy_set_header set has template-guarded lines and cannot be copied down');
  const connection = copied.filter((directive) => directive.args[0]!.value.toLowerCase() === 'connection');
  const needsValue = connection.some(isClosing) || (connection.length === 0 && !hasModernKeepaliveDefaults(options));
  // A value for Connection that must be the upgrade map's variable, where no map can be had: no fix.
  const refused = needsValue && forwardsUpgrade(effectiveProxyHeaders(pass.scope)) ? upgradeMapRefusal(home.location) : undefined;
  if (refused) return refused instanceof NoFix ? refused : new NoFix('no http level here can hold the upgrade map the header set needs');
  return { kind: 'copy', copied, connection, needsValue };
}

function headerLines(workspace: Workspace, pass: Pass, plan: IdentityPlan, target: ImplicitTarget, options: ResolvedOptions): HeaderLines {
  const none: HeaderLines = { lines: [], edits: [], setsConnection: false };
  const { home, headers } = plan;
  if (headers.kind === 'has-host') return none;
  const hostLine = `proxy_set_header Host ${word(target.proxyHost)};`;
  if (headers.kind === 'add-host') return { ...none, lines: [hostLine] };
  const { copied, connection, needsValue } = headers;
  const value = needsValue ? cleared(workspace, pass, home, options) : { text: '', edits: [] };
  const lines = copied.map((directive) =>
    isClosing(directive)
      ? `proxy_set_header ${directive.args[0]!.raw} ${value.text};`
      : `proxy_set_header ${directive.args.map((argument) => argument.raw).join(' ')};`,
  );
  lines.push(hostLine);
  if (connection.length === 0 && needsValue) lines.push(`proxy_set_header Connection ${value.text};`);
  return { lines, edits: value.edits, setsConnection: true };
}

/** What the identity lines are made of (placement.ts asks about each). */
const IDENTITY_DIRECTIVES = ['proxy_set_header', 'proxy_redirect', 'proxy_ssl_name'];

function redirectLine(workspace: Workspace, pass: Pass, home: PassHome, target: ImplicitTarget): string | undefined {
  const argument = pass.directive.args[0]!;
  if (target.socket || argument.variables.length > 0) return undefined;
  if (lookupDirective(workspace, pass.scope, 'proxy_redirect').kind !== 'none') return undefined;
  if (target.uri === '') return `proxy_redirect ${word(`${argument.value}/`)} /;`;
  const location = home.location.block?.args.at(-1);
  if (!location || location.templated) return undefined;
  return `proxy_redirect ${word(argument.value)} ${word(location.value)};`;
}

function tlsNameLine(workspace: Workspace, pass: Pass, target: ImplicitTarget): string | undefined {
  if (target.scheme.toLowerCase() !== 'https' || !target.host) return undefined;
  if (lookupDirective(workspace, pass.scope, 'proxy_ssl_name').kind !== 'none') return undefined;
  return `proxy_ssl_name ${word(target.host)};`;
}

/** proxy_pass statements of the location, its `if` and `limit_except` blocks included (nested locations excluded). */
function proxyPassesIn(scope: Scope): number {
  const own = scope.statements.filter((statement) => statement.name === 'proxy_pass').length;
  return own + scope.children.filter((child) => child.context !== 'location').reduce((n, child) => n + proxyPassesIn(child), 0);
}

export interface IdentityPlan {
  home: PassHome;
  headers: HeaderPlan;
}

function planOrWhy(workspace: Workspace, pass: Pass, options: ResolvedOptions): IdentityPlan | NoFix {
  const home = passHome(pass);
  if (!home) return new NoFix('the pass is checked without its location: check this file with the one that includes it');
  // A second proxy_pass in the location (one in an `if`) would get this pass's Host and redirect too.
  if (proxyPassesIn(home.location) !== 1) return new NoFix('its location has another proxy_pass, which would get this Host too');
  for (const name of IDENTITY_DIRECTIVES) {
    const refused = refusal(home.location, name);
    if (refused) return refused;
  }
  const headers = headerPlan(workspace, pass, home, options);
  return headers instanceof NoFix ? headers : { home, headers };
}

/** Whether targetIdentityEdits() can keep the target's identity, decided without writing a line (undefined: no fix). */
export function identityPlan(workspace: Workspace, pass: Pass, options: ResolvedOptions): IdentityPlan | undefined {
  const plan = planOrWhy(workspace, pass, options);
  return plan instanceof NoFix ? undefined : plan;
}

/** How an include that may set `name` at `scope`'s levels is named in a withheld reason. */
export function hiddenReason(workspace: Workspace, scope: Scope, name: string): string | undefined {
  const cause = unknownCause(workspace, scope, name);
  if (!cause) return undefined;
  if (cause.kind === 'syntax') return `a syntax error on a level above the pass may hide ${name}: fix it first`;
  const target = cause.include.args[0];
  const where = target ? target.raw : 'include';
  if (target && (target.templated || target.variables.length > 0)) return `an include with a run-time path (${where}) may set ${name} here`;
  const hint = cause.outside ? ': map its directory with --path-map' : '';
  return `an include that could not be read (${where}) may set ${name} here${hint}`;
}

/**
 * Why no fix can keep the target's identity (Host, the default proxy_redirect, the TLS name) at `pass`, in words
 * for the finding; undefined when targetIdentityEdits() will write every line it needs.
 */
export function identityWithheld(workspace: Workspace, pass: Pass, target: ImplicitTarget, options: ResolvedOptions): string | undefined {
  const plan = planOrWhy(workspace, pass, options);
  if (plan instanceof NoFix) return plan.why;
  const argument = pass.directive.args[0]!;
  if (!target.socket && argument.variables.length === 0) {
    const redirect = hiddenReason(workspace, pass.scope, 'proxy_redirect');
    if (redirect) return redirect;
  }
  if (target.scheme.toLowerCase() === 'https' && target.host) return hiddenReason(workspace, pass.scope, 'proxy_ssl_name');
  return undefined;
}

export function targetIdentityEdits(
  workspace: Workspace,
  pass: Pass,
  target: ImplicitTarget,
  options: ResolvedOptions,
): TargetIdentity | undefined {
  const plan = identityPlan(workspace, pass, options);
  if (!plan) return undefined;
  const { home } = plan;
  const headers = headerLines(workspace, pass, plan, target, options);
  const lines = [...headers.lines, redirectLine(workspace, pass, home, target), tlsNameLine(workspace, pass, target)].filter(
    (line): line is string => line !== undefined,
  );
  const edits = lines.length > 0 ? [insertLineBefore(home.anchor, lines.join('\n')), ...headers.edits] : headers.edits;
  return { edits, setsConnection: headers.setsConnection };
}
