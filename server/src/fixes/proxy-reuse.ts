// Makes a proxy_pass able to reuse upstream connections: HTTP/1.1, and no `Connection: close` towards the upstream.
// Used by proxy-http-version, connection-header-missing, and by the fixes that add keepalive to an upstream
// (upstream-keepalive, proxy-pass-no-upstream), so one fix leaves no new finding behind.
//
//   http11Plan(ws, pass, options)             how it would be set (rewrite, insert) or undefined, nothing written
//   http11Edits(ws, pass, options)            effective proxy_http_version 1.1 at the pass
//   clearConnectionPossible(ws, pass, opts)   whether it has an edit, nothing written
//   clearConnectionEdits(ws, pass, options)   effective Connection cleared, every other header unchanged
//   proxyReuseEdits(ws, pass, options)        both, merged (edit-set.ts)
//   proxyReuseEditsForPasses(ws, ps, opts)    the same for several passes at once, merged across them
//
// Each returns [] when there is nothing to do or nothing safe to do: a grpc/fastcgi pass, a templated or guarded
// (unknown) value, a Connection set from a variable (`$http_connection`, a map: other rules' business), a level
// where placement.ts does not allow the directive.
//
// Decisions:
// - proxy_http_version 1.0 written on the pass's own location (or an `if` in it) is changed where it is; one written
//   on an enclosing level (server, http, outer location) is overridden by adding `proxy_http_version 1.1;` to the
//   pass's location. Changing the enclosing level would switch every other location under it too, and an explicit
//   1.0 may be deliberate for a backend there; the pass's own location is the least the fix can touch. A second
//   definition in one location is an nginx error (`is duplicate`), hence the in-place change on the own level.
// - Connection is added at the level L whose proxy_set_header set is effective (after L's last one), never below
//   it: a location's first proxy_set_header drops everything inherited. Other locations inheriting L's set get the
//   cleared Connection as well, and nothing else changes for them. That is harmless for a location whose upstream
//   has no keepalive: nginx closes every upstream connection it does not cache itself, whatever the header says,
//   and with HTTP/1.0 the upstream closes anyway. What must keep working is WebSocket: when the effective set
//   forwards `Upgrade $http_upgrade`, Connection becomes the upgrade map's variable (`'' ''` arm,
//   connection-map.ts) rather than `""`, for L and everyone inheriting it.
//   A header set coming from a snippet (`include proxy_params;`) gets the line after that include, in L's own block.
// - Exception: L is a location whose own set drops a Connection set above it (the proxy-set-header-inheritance
//   trap). Then the line goes before L's first header, where that rule's fix copies the dropped headers down, so
//   fix-all sees the two fixes collide, applies one and recomputes the other: never two Connection lines.
// - No level defines a set: `proxy_set_header Connection "";` goes into the pass's location, before its first
//   proxy_pass (the same spot http11Edits uses, so the two merge into one insertion). Nested locations without a
//   set of their own inherit it, which changes nothing but Connection for them either.
// - A literal `close` is replaced where it is written, for the same reason as above (the level defines the set).
// - Likewise, a location nested in the pass's location inherits an added `proxy_http_version 1.1`; HTTP/1.1 towards
//   a backend without keepalive only changes framing nginx handles itself (chunked responses).
import { insertLineAfter, insertLineBefore, replaceSpan } from './edits.js';
import type { Pass } from '../analysis/passes.js';
import type { Scope } from '../analysis/scopes.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { ConfigFile } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { ensureUpgradeMap, upgradeMapRefusal } from './connection-map.js';
import { mergeEdits } from './edit-set.js';
import { lookupDirective } from '../analysis/effective-lookup.js';
import { firstHeaderAnchor, lastHeaderAnchor } from './header-anchor.js';
import { lineFixPlan, passHome } from './pass-home.js';
import {
  connectionState,
  effectiveHeaderSet,
  forwardsUpgrade,
  httpVersionState,
  isLiteralClose,
  type Found,
} from '../analysis/proxy-state.js';
import { NoFix, refusal } from './placement.js';
import { emptyString } from './quote-style.js';

export const HTTP11_LINE = 'proxy_http_version 1.1;';

/**
 * How http11Edits() would set HTTP/1.1, decided without writing it: rewrite the 1.0 on the pass's own level, insert a
 * line in its location, or nothing (no failing state, no location, or a level placement.ts refuses).
 */
export function http11Plan(workspace: Workspace, pass: Pass, options: ResolvedOptions): 'rewrite' | 'insert' | undefined {
  if (pass.name !== 'proxy_pass') return undefined;
  const state = httpVersionState(workspace, pass.scope, options);
  return lineFixPlan(workspace, pass, 'proxy_http_version', state, { missing: 'default-1.0', explicit: 'explicit-1.0' });
}

export function http11Edits(workspace: Workspace, pass: Pass, options: ResolvedOptions): TextEdit[] {
  const plan = http11Plan(workspace, pass, options);
  if (!plan) return [];
  const state = httpVersionState(workspace, pass.scope, options);
  const home = passHome(pass)!;
  if (plan === 'rewrite' && state.kind === 'explicit-1.0') {
    return state.definition.directives.flatMap((directive) => {
      const version = directive.args[0];
      if (version?.value !== '1.0') return [];
      // `"1.0"` stays quoted: only the number changes.
      return [replaceSpan(directive.file, version.span, version.raw.replace('1.0', '1.1'))];
    });
  }
  return [insertLineBefore(home.anchor, HTTP11_LINE)];
}

interface ConnectionValue {
  /** The argument text to write: `""` (or `''`), or the upgrade map's variable. */
  text: string;
  /** The map's insertion, when one is needed. */
  edits: TextEdit[];
}

/**
 * What Connection should be for `pass`'s set: empty, or the upgrade map's variable when the set forwards the
 * client's Upgrade header (an empty Connection would strip the upgrade and break WebSocket). Undefined when a map
 * is needed and has nowhere to go.
 */
function clearedValue(
  workspace: Workspace,
  definition: Found | undefined,
  near: { file: ConfigFile; scope: Scope },
  options: ResolvedOptions,
): ConnectionValue | undefined {
  if (!forwardsUpgrade(effectiveHeaderSet(definition))) return { text: emptyString(near.file), edits: [] };
  const map = ensureUpgradeMap(workspace, near, options);
  // No map possible (or allowed): the Connection edit is left out, the rest of the fix stands.
  return map && !(map instanceof NoFix) ? { text: map.variable, edits: map.edits } : undefined;
}

interface Insertion {
  near: { file: ConfigFile; scope: Scope };
  insert(line: string): TextEdit;
}

/**
 * True when `level` is a location whose own set drops a Connection its enclosing level sets: the
 * proxy-set-header-inheritance fix copies that one down before the block's first header, so this fix inserts at the
 * same spot. Fix-all then applies one of the two and recomputes the other: never two Connection lines.
 */
function dropsInheritedConnection(workspace: Workspace, level: Scope): boolean {
  if (level.context !== 'location' || !level.parent) return false;
  const above = lookupDirective(workspace, level.parent, 'proxy_set_header');
  return above.kind === 'found' && effectiveHeaderSet(above).has('connection');
}

/** Where `proxy_set_header Connection ...;` goes: with the effective set's headers, or into the location. */
function connectionInsertion(workspace: Workspace, pass: Pass, definition: Found | undefined): Insertion | undefined {
  const insertion = connectionPlace(workspace, pass, definition);
  return insertion && !refusal(insertion.near.scope, 'proxy_set_header') ? insertion : undefined;
}

function connectionPlace(workspace: Workspace, pass: Pass, definition: Found | undefined): Insertion | undefined {
  if (definition) {
    const level = definition.level;
    if (dropsInheritedConnection(workspace, level)) {
      const first = firstHeaderAnchor(definition);
      return first && { near: { file: first.file, scope: level }, insert: (line) => insertLineBefore(first, line) };
    }
    const last = lastHeaderAnchor(definition);
    return last && { near: { file: last.file, scope: level }, insert: (line) => insertLineAfter(last, line) };
  }
  const home = passHome(pass);
  if (!home) return undefined;
  return {
    near: { file: home.anchor.file, scope: home.location },
    insert: (line) => insertLineBefore(home.anchor, line),
  };
}

/**
 * Whether clearConnectionEdits() has an edit to give, decided without writing it: a place for the line (or the
 * literal close to replace), and the upgrade map where WebSocket needs one.
 */
export function clearConnectionPossible(workspace: Workspace, pass: Pass, options: ResolvedOptions): boolean {
  if (pass.name !== 'proxy_pass') return false;
  const state = connectionState(workspace, pass.scope, options);
  const mapAvailable = (definition: Found | undefined, scope: Scope) =>
    !forwardsUpgrade(effectiveHeaderSet(definition)) || upgradeMapRefusal(scope) === undefined;
  if (state.kind === 'close') return mapAvailable(state.definition, state.definition.level);
  if (state.kind !== 'unset') return false;
  const insertion = connectionInsertion(workspace, pass, state.definition);
  return insertion !== undefined && mapAvailable(state.definition, insertion.near.scope);
}

export function clearConnectionEdits(workspace: Workspace, pass: Pass, options: ResolvedOptions): TextEdit[] {
  if (pass.name !== 'proxy_pass') return [];
  const state = connectionState(workspace, pass.scope, options);
  if (state.kind === 'close') {
    const written = state.header.directives.filter((d) => isLiteralClose(d.args[1]));
    const near = { file: written[0]!.file, scope: state.definition.level };
    const value = clearedValue(workspace, state.definition, near, options);
    if (!value) return [];
    return [...written.map((d) => replaceSpan(d.file, d.args[1]!.span, value.text)), ...value.edits];
  }
  if (state.kind !== 'unset') return [];
  const insertion = connectionInsertion(workspace, pass, state.definition);
  if (!insertion) return [];
  const value = clearedValue(workspace, state.definition, insertion.near, options);
  if (!value) return [];
  return [insertion.insert(`proxy_set_header Connection ${value.text};`), ...value.edits];
}
/** http11Edits and clearConnectionEdits together, as one fix's edits. */
export function proxyReuseEdits(workspace: Workspace, pass: Pass, options: ResolvedOptions): TextEdit[] {
  return proxyReuseEditsForPasses(workspace, [pass], options);
}

/**
 * The same for every pass in `passes` (e.g. all users of an upstream that just got keepalive): passes sharing a
 * location or an inherited header set ask for the same edits, which are merged here rather than applied twice.
 */
export function proxyReuseEditsForPasses(
  workspace: Workspace,
  passes: readonly Pass[],
  options: ResolvedOptions,
): TextEdit[] {
  return mergeEdits(
    passes.flatMap((pass) => [...http11Edits(workspace, pass, options), ...clearConnectionEdits(workspace, pass, options)]),
  );
}
