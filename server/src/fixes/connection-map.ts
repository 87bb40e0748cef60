// The keepalive-friendly upgrade map, `map $http_upgrade $connection_upgrade { default upgrade; '' ''; }`: reused when
// the http level already has one, inserted otherwise. Used by every fix that replaces a Connection value which must
// keep WebSocket upgrades working (`$http_connection` passthrough, proxy fixes copying headers).
//
//   ensureUpgradeMap(ws, near, options) -> { variable: '$connection_upgrade', edits } | NoFix | undefined
//   upgradeMapRefusal(scope)             the same answer, without building the map (undefined: a map is given)
//
// Decisions:
// - An equivalent map (`default upgrade`, `''` arm empty, either quotes, any order, extra arms mapping to `upgrade`)
//   that is its variable's last definition at the root's http level is reused: its variable, no edits. Not a map under
//   a template guard (it may not be rendered), nor one in another root (site files checked apart may not share it).
// - A map that differs only by `'' close` (the nginx docs' recipe) is reused too, and its `''` arm is corrected in the
//   same fix (the very edit connection-map-close's fix makes): switching a location from `$http_connection` to a map
//   that sends `close` on every ordinary request would make reuse worse, not better. The correction is harmless for
//   other users of the variable: without upstream keepalive nginx closes its side after the response anyway.
// - Otherwise a new map is inserted. Its name is fixed, `$connection_upgrade`, or `$connection_upgrade_keepalive`
//   (then `_2`, ...) when the root already defines that variable some other way. It is never derived from a template
//   or app name: a Dokku app name may contain `-`, which an nginx variable name cannot. In a sigil, every app's
//   rendered file is included into one http block, so several apps define the same map: map variables are
//   changeable, identical definitions are harmless and the last one wins, so a fixed name is right.
// - Placement: inside the root's `http {}` before its first `server`/`upstream`/`include` (at its end when it has
//   none); when the root file's top level is http (site files, Dokku sigils), at the file's top level before the
//   first such statement, or before the outermost template action (`{{ range }}`, `{{ if }}`) that encloses it, so
//   the map is rendered exactly once. The table's quotes follow the file (single quotes unless it quotes with `"`).
// - undefined when the scope is not inside http (a server or location snippet checked alone): nowhere to put a map.
//   A NoFix when a new map would be needed at a level placement.ts refuses (a snippet whose context is unknown:
//   its top level is only read as http). Reusing an existing map needs no placement.
//   `options` is accepted for symmetry with the other fix helpers; the map does not depend on the target version.
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import { detectIndentUnit, insertIntoBlock, insertLineBefore, lineStartOf, replaceSpan } from './edits.js';
import { allScopes, guardsWithin, type Scope } from '../analysis/scopes.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Workspace, WorkspaceRoot } from '../model/workspace.js';
import { perWorkspace } from '../analysis/per-workspace.js';
import { effectiveMaps, emptyArm, httpScopeOf, upgradeMapKind, type MapEntry, type MapReading } from '../analysis/upgrade-maps.js';
import { preferredQuote } from './quote-style.js';
import { NoFix, refusal } from './placement.js';

export interface UpgradeMap {
  /** With its `$`, e.g. `$connection_upgrade`. */
  variable: string;
  /** Empty when an equivalent map exists. */
  edits: TextEdit[];
}

export const UPGRADE_MAP_VARIABLE = 'connection_upgrade';
const FALLBACK_VARIABLE = 'connection_upgrade_keepalive';
/** Statements the map goes before: it reads best ahead of what uses it. */
const ANCHORS = new Set(['server', 'upstream', 'include']);
/** Directives defining a variable, and which argument names it. */
const DEFINERS: Record<string, (d: Directive) => string | undefined> = {
  map: (d) => d.args[1]?.value,
  geo: (d) => d.args[d.args.length - 1]?.value,
  split_clients: (d) => d.args[1]?.value,
  set: (d) => d.args[0]?.value,
  perl_set: (d) => d.args[0]?.value,
  js_set: (d) => d.args[0]?.value,
};

export function ensureUpgradeMap(
  workspace: Workspace,
  near: { file: ConfigFile; scope: Scope },
  _options: ResolvedOptions,
): UpgradeMap | NoFix | undefined {
  const refused = upgradeMapRefusal(near.scope);
  if (refused) return refused === 'no-http' ? undefined : refused;
  const http = httpScopeOf(near.scope)!;
  const { reusable, closing } = candidatesAt(http);
  if (reusable) return { variable: `$${reusable.variable}`, edits: [] };
  const fix = closing && emptyArmFix(emptyArm(closing)!);
  if (closing && fix) return { variable: `$${closing.variable}`, edits: [fix] };
  return insertedMap(workspace, http, near.file);
}

/**
 * ensureUpgradeMap()'s answer without building anything: undefined when it has a map to give, a NoFix when a new
 * map would be needed where placement.ts refuses one, `'no-http'` when no http level holds the scope.
 */
export function upgradeMapRefusal(scope: Scope): NoFix | 'no-http' | undefined {
  const http = httpScopeOf(scope);
  if (!http) return 'no-http';
  const { reusable, closing } = candidatesAt(http);
  if (reusable || (closing && emptyArmFix(emptyArm(closing)!))) return undefined;
  return refusal(http, 'map');
}

function insertedMap(workspace: Workspace, http: Scope, near: ConfigFile): UpgradeMap {
  const variable = freeName(workspace, http);
  const target = http.block?.file ?? http.root.file;
  const text = mapText(variable, target, near);
  return { variable: `$${variable}`, edits: [insertMap(http, text)] };
}

interface Candidates {
  reusable: MapReading | undefined;
  closing: MapReading | undefined;
}

// Every fix at an http level asks the same question of its maps: answer it once per level.
const candidatesByLevel = new WeakMap<Scope, Candidates>();

function candidatesAt(http: Scope): Candidates {
  let candidates = candidatesByLevel.get(http);
  if (!candidates) {
    // A map under a template guard (`{{ if }}`) may not be rendered: never reused, though it still takes its name.
    const maps = [...effectiveMaps(http).values()].filter((reading) => guardsWithin(reading.directive, http).length === 0);
    candidates = {
      reusable: preferred(maps.filter((reading) => upgradeMapKind(reading) === 'keepalive')),
      closing: preferred(maps.filter((reading) => upgradeMapKind(reading) === 'close')),
    };
    candidatesByLevel.set(http, candidates);
  }
  return candidates;
}

/** `$connection_upgrade` when several qualify (the name other configs and docs use), else the first. */
function preferred(readings: MapReading[]): MapReading | undefined {
  return readings.find((reading) => reading.variable === UPGRADE_MAP_VARIABLE) ?? readings[0];
}

/** Variable names each root defines (lower-cased, without `$`): every fix adding a map asks, so read them once. */
const definedNamesByRoot = perWorkspace((workspace: Workspace) => {
  const byRoot = new Map<WorkspaceRoot, Set<string>>();
  for (const scope of allScopes(workspace)) {
    let names = byRoot.get(scope.root);
    if (!names) byRoot.set(scope.root, (names = new Set()));
    for (const statement of scope.statements) {
      const name = Object.hasOwn(DEFINERS, statement.name) ? DEFINERS[statement.name]!(statement) : undefined;
      if (name?.startsWith('$')) names.add(name.slice(1).toLowerCase());
    }
  }
  return byRoot;
});

function definedNames(workspace: Workspace, http: Scope): ReadonlySet<string> {
  return definedNamesByRoot(workspace).get(http.root) ?? new Set();
}

function freeName(workspace: Workspace, http: Scope): string {
  const taken = definedNames(workspace, http);
  if (!taken.has(UPGRADE_MAP_VARIABLE)) return UPGRADE_MAP_VARIABLE;
  if (!taken.has(FALLBACK_VARIABLE)) return FALLBACK_VARIABLE;
  let n = 2;
  while (taken.has(`${FALLBACK_VARIABLE}_${n}`)) n++;
  return `${FALLBACK_VARIABLE}_${n}`;
}

/** The map's lines, `\n`-separated, followed by an empty line that separates it from what follows. */
function mapText(variable: string, file: ConfigFile, near: ConfigFile): string {
  const unit = detectIndentUnit(file);
  // Single quotes on a tie: the nginx docs' recipe writes the map that way.
  const q = preferredQuote([file, near], "'");
  return [`map $http_upgrade $${variable} {`, `${unit}default upgrade;`, `${unit}${q}${q} ${q}${q};`, '}', ''].join('\n');
}

function insertMap(http: Scope, text: string): TextEdit {
  if (http.block) {
    const anchor = http.block.children.find((child) => ANCHORS.has(child.name));
    return anchor ? insertBefore(anchor, text) : insertIntoBlock(http.block, text.replace(/\n$/, ''), 'end');
  }
  const file = http.root.file;
  const anchor = file.directives.find((directive) => ANCHORS.has(directive.name));
  if (anchor) return insertBefore(anchor, text);
  return appendToFile(file, text);
}

/**
 * Before `anchor`, or before the outermost template action enclosing it (`{{ range }}` around Dokku's server blocks),
 * which must stay outside: a map inside a range would be rendered once per iteration.
 */
function insertBefore(anchor: Directive, text: string): TextEdit {
  const parentGuards = anchor.parent?.guards ?? [];
  const outer = anchor.guards.find((guard) => !parentGuards.includes(guard));
  if (!outer) return insertLineBefore(anchor, text);
  const file = anchor.file;
  const start = outer.control.span.startOffset;
  const lineStart = lineStartOf(file.text, start);
  const indent = file.text.slice(lineStart, start);
  const lines = indentLines(text, /^[ \t]*$/.test(indent) ? indent : '', file.eol);
  if (/^[ \t]*$/.test(indent)) return { file: file.path, startOffset: lineStart, endOffset: lineStart, newText: lines + file.eol };
  return { file: file.path, startOffset: start, endOffset: start, newText: file.eol + lines + file.eol };
}

function indentLines(text: string, indent: string, eol: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : indent + line))
    .join(eol);
}

/** At the end of a file with no anchor statement, after a blank line. */
function appendToFile(file: ConfigFile, text: string): TextEdit {
  const end = file.text.length;
  const body = indentLines(text.replace(/\n$/, ''), '', file.eol) + file.eol;
  const separator = file.text.trim() === '' ? '' : file.text.endsWith('\n') ? file.eol : file.eol + file.eol;
  return { file: file.path, startOffset: end, endOffset: end, newText: separator + body };
}

/** `'' close` -> `'' ''`: the value takes the key's quotes (the file's style at that very line). */
export function emptyArmFix(entry: MapEntry): TextEdit | undefined {
  if (!entry.value) return undefined;
  const quote = entry.keyRaw[0] === '"' ? '"' : "'";
  return replaceSpan(entry.directive.file, entry.value.span, quote + quote);
}
