// Reading `map` blocks that compute a Connection header from `$http_upgrade`, shared by the connection-map-close rule
// and the upgrade-map fix (fixes/connection-map.ts, which also builds emptyArmFix).
//
//   readMap(map)                 a map's source, variable and table, or undefined when nginx would not take it as one
//   emptyArm(reading)            the `''` / `""` entry (what an ordinary request, without Upgrade, gets)
//   isCloseArm(entry)            that entry's value is `close` (any case)
//   upgradeMapKind(reading)      'keepalive' | 'close' | 'other' (see below)
//   httpScopeOf(scope)           the http level a scope sits in
//   effectiveMaps(http)          variable -> the map defining it last at that http level (map variables are
//                                changeable: a later map of the same variable silently wins http-wide)
//   closingMapsOf(scope)         the maps whose `'' close` arm is the Connection header sent from `scope`
//
// Variable names are compared lower-cased: nginx lower-cases them when it registers and looks them up.
import { statementsNamed, type Scope } from './scopes.js';
import { hasTemplateAction } from './template-text.js';
import { effectiveProxyHeaders } from './inheritance.js';
import type { Argument, Directive } from '../model/types.js';
import { MemoMap } from '../util/memo-map.js';

export interface MapEntry {
  directive: Directive;
  /** The key as nginx reads it (quotes removed). */
  key: string;
  /** The key as written, quotes included. */
  keyRaw: string;
  value: Argument | undefined;
}

export interface MapReading {
  directive: Directive;
  /** Lower-cased source expression, e.g. `$http_upgrade`. */
  source: string;
  /** Lower-cased variable name without `$`. */
  variable: string;
  /** Table entries in order; `hostnames` / `volatile` parameters left out. */
  entries: MapEntry[];
  /**
   * True when the table cannot be known statically: an `include` inside it, a template action in a key or value, or
   * an entry under a template guard (it may or may not be rendered).
   */
  opaque: boolean;
}

const PARAMETERS = new Set(['hostnames', 'volatile']);
const VARIABLE = /^\$([A-Za-z0-9_]+)$/;

export function readMap(map: Directive): MapReading | undefined {
  const [source, target] = map.args;
  if (map.name !== 'map' || !map.blockSpan || map.args.length !== 2 || !source || !target) return undefined;
  const variable = VARIABLE.exec(target.value)?.[1];
  if (!variable || target.templated) return undefined;
  const entries: MapEntry[] = [];
  let opaque = source.templated;
  for (const child of map.children) {
    if (PARAMETERS.has(child.name) && child.args.length === 0) continue;
    const keyRaw = child.file.text.slice(child.nameSpan.startOffset, child.nameSpan.endOffset);
    const guarded = child.guards.some((guard) => !map.guards.includes(guard));
    if (child.name === 'include' || guarded || hasTemplateAction(keyRaw) || child.args.some((a) => a.templated)) {
      opaque = true;
    }
    entries.push({ directive: child, key: child.name, keyRaw, value: child.args[0] });
  }
  return { directive: map, source: source.value.toLowerCase(), variable: variable.toLowerCase(), entries, opaque };
}

/** The `''` entry: an empty key can only be written quoted. */
export function emptyArm(reading: MapReading): MapEntry | undefined {
  return reading.entries.find((entry) => entry.key === '' && entry.keyRaw.length >= 2);
}

export function isCloseArm(entry: MapEntry): boolean {
  return entry.value?.value.toLowerCase() === 'close' && !entry.value.templated;
}

function valueIs(entry: MapEntry | undefined, expected: string): boolean {
  return entry?.value !== undefined && !entry.value.templated && entry.value.value.toLowerCase() === expected;
}

/**
 * How a `map $http_upgrade $X { ... }` behaves as a Connection header:
 * - 'keepalive': `default upgrade; '' '';` (any order, either quotes; other arms mapping to `upgrade` are fine):
 *   upgrades are forwarded, ordinary requests send no Connection header, so the upstream connection is reused;
 * - 'close': the same except that the `''` arm is `close` (the nginx docs' WebSocket recipe);
 * - 'other': anything else (another source, another default, arms with other values, an opaque table).
 */
export function upgradeMapKind(reading: MapReading): 'keepalive' | 'close' | 'other' {
  if (reading.source !== '$http_upgrade' || reading.opaque) return 'other';
  const empty = emptyArm(reading);
  const defaults = reading.entries.filter((entry) => entry.key === 'default');
  if (!empty || defaults.length !== 1 || !valueIs(defaults[0], 'upgrade')) return 'other';
  const others = reading.entries.filter((entry) => entry !== empty && entry.key !== 'default');
  if (!others.every((entry) => valueIs(entry, 'upgrade'))) return 'other';
  if (valueIs(empty, '')) return 'keepalive';
  return isCloseArm(empty) ? 'close' : 'other';
}


export function httpScopeOf(scope: Scope): Scope | undefined {
  for (let level: Scope | undefined = scope; level; level = level.parent) {
    if (level.context === 'http') return level;
  }
  return undefined;
}

// Every pass and every fix needing a map asks its http level: read each level's maps once.
const mapsByLevel = new MemoMap<Scope, ReadonlyMap<string, MapReading>>();

/** Shared between callers: do not mutate. */
export function effectiveMaps(http: Scope): ReadonlyMap<string, MapReading> {
  let maps = mapsByLevel.get(http);
  if (!maps) {
    const readings = new Map<string, MapReading>();
    for (const statement of statementsNamed(http, 'map')) {
      const reading = readMap(statement);
      if (reading) readings.set(reading.variable, reading);
    }
    maps = readings;
    mapsByLevel.set(http, maps);
  }
  return maps;
}

/** `$name` or `${name}`: a header value that is exactly one variable. */
const HEADER_VARIABLE = /^\$(?:([A-Za-z0-9_]+)|\{([A-Za-z0-9_]+)\})$/;

/** The map variables the effective Connection header(s) at `scope` name, lower-cased, without `$`. */
function connectionVariables(scope: Scope): string[] {
  const header = effectiveProxyHeaders(scope).get('connection');
  const names: string[] = [];
  for (const directive of header?.directives ?? []) {
    const value = directive.args[1];
    const match = value && !value.templated ? HEADER_VARIABLE.exec(value.value) : null;
    if (match) names.push((match[1] ?? match[2]!).toLowerCase());
  }
  return names;
}

/**
 * The maps whose `''` arm sends `close` and whose variable is the Connection header sent from `scope`: every ordinary
 * request there asks the upstream to close. connection-map-close reports them; the upstream-keepalive fix corrects
 * them with the keepalive it adds, so that its fix does not bring the other finding out.
 */
export function closingMapsOf(scope: Scope): Array<{ reading: MapReading; arm: MapEntry }> {
  const http = httpScopeOf(scope);
  if (!http) return [];
  const maps = effectiveMaps(http);
  const closing: Array<{ reading: MapReading; arm: MapEntry }> = [];
  for (const variable of connectionVariables(scope)) {
    const reading = maps.get(variable);
    const arm = reading && emptyArm(reading);
    if (reading && arm && isCloseArm(arm)) closing.push({ reading, arm });
  }
  return closing;
}
