// What the directive check reads of the table for one name, worked out once per name, context and target: a run
// checks tens of thousands of directives written with a few hundred names, so the table's answers (which entries
// the name has, whether one exists at the target, which one nginx picks in a context, how many arguments its forms
// take) are looked up once and each directive is then judged by its own words only.
import type { DirectiveContext, DirectiveEntry } from '../model/directive-table.js';
import { argumentCountValid, directiveEntries, entryAtVersion, existsInVersion, moduleInfo } from '../model/directive-table.js';
import { distributionBuild } from '../model/distribution-builds.js';
import { refusesSecond } from './directive-duplicates.js';
import { valueCheck, type ValueCheck } from './directive-values.js';

/** The target the check reads the table at: options.nginxVersion and options.nginxBuild, alike for a whole run. */
export interface TableTarget {
  /** [major, minor, patch], or undefined: any release the table knows counts. */
  version: readonly number[] | undefined;
  /** The distribution build nginx is (options.nginxBuild): the directives it backported exist. */
  build?: string;
}

/** What the check reads of one entry at one target release (or at none), worked out once per entry and target. */
export interface EntryAtTarget {
  /** The entry as each release the check should accept has it: the target's, or (no target) every recorded form. */
  forms: readonly DirectiveEntry[];
  /** In the target release (true without one). */
  inVersion: boolean;
  /** The Debian package of a dynamic module's entry (not for static ones). */
  debianPackage: string | undefined;
  refusesSecond: boolean;
  /** What its handler refuses about the values; undefined when it parses none the check judges. */
  values: ValueCheck | undefined;
  /** Bit n (n <= 7): some form takes n arguments; bit 8: some form takes any count above 7 (argumentCountValid). */
  counts: number;
  /** Some form has words the check compares (a flag's or enum's), or `values` is set: the words are read. */
  readsWords: boolean;
}

/** One name read in one context at the target: its entries, and the one nginx takes there. */
export interface NameInContext {
  all: readonly DirectiveEntry[];
  /** A target release is set and none of the entries is in it (nor backported into the build): a version problem. */
  missing: boolean;
  /** The entry nginx takes here (the first that exists at the target and allows the context), if any. */
  picked: { entry: DirectiveEntry; at: EntryAtTarget } | undefined;
}

/** The names read so far in one context at one target. */
export type ContextNames = Map<string, NameInContext>;

const MAX_COUNTED = 8;
const NO_TARGET = 'any';
const byTarget = new Map<string, WeakMap<DirectiveEntry, EntryAtTarget>>();
let lastVersion: readonly number[] | undefined;
let lastTarget: WeakMap<DirectiveEntry, EntryAtTarget> | undefined;

export function entryAtTarget(entry: DirectiveEntry, version: readonly number[] | undefined): EntryAtTarget {
  // One run asks with one version array: it is compared by identity before its text is looked up.
  if (version !== lastVersion || !lastTarget) {
    const key = version ? version.join('.') : NO_TARGET;
    lastTarget = byTarget.get(key);
    if (!lastTarget) byTarget.set(key, (lastTarget = new WeakMap()));
    lastVersion = version;
  }
  let known = lastTarget.get(entry);
  if (!known) {
    const forms = version
      ? [entryAtVersion(entry, version)]
      : [entry, ...(entry.changes ?? []).map((change) => entryAtVersion(entry, releaseBefore(change.version)))];
    const debian = moduleInfo(entry.module)?.debian;
    const values = valueCheck(entry, version);
    let counts = 0;
    for (const form of forms) for (let count = 0; count <= MAX_COUNTED; count++) if (argumentCountValid(form, count)) counts |= 1 << count;
    known = {
      forms,
      inVersion: !version || existsInVersion(entry, version),
      debianPackage: debian === 'static' ? undefined : debian,
      refusesSecond: refusesSecond(entry, version),
      values,
      counts,
      readsWords: values !== undefined || forms.some((form) => form.values !== undefined && (form.args === 'flag' || form.args === '1' || form.multiple === true)),
    };
    lastTarget.set(entry, known);
  }
  return known;
}

/** Whether `count` arguments pass the argument-count check of some form (the same answer as argumentCountValid). */
export const countAccepted = (at: EntryAtTarget, count: number): boolean => ((at.counts >> Math.min(count, MAX_COUNTED)) & 1) === 1;

/** A version just before `release` ("1.29.7" -> 1.29.6, "1.25.0" -> 1.24.999), to read the entry as it was then. */
function releaseBefore(release: string): number[] {
  const [major = 0, minor = 0, patch = 0] = release.split('.').map(Number);
  return patch > 0 ? [major, minor, patch - 1] : [major, minor - 1, 999];
}

/** In the target release, or backported into the target's distribution build. */
export function exists(entry: DirectiveEntry, target: TableTarget): boolean {
  if (!target.version || entryAtTarget(entry, target.version).inVersion) return true;
  return target.build !== undefined && distributionBuild(target.build)?.backports.has(entry.name) === true;
}

export const allows = (entry: DirectiveEntry, context: DirectiveContext): boolean =>
  entry.contexts.includes(context) || entry.contexts.includes('any');

const byTargetContext = new Map<string, Map<DirectiveContext, ContextNames>>();
let namesVersion: readonly number[] | undefined;
let namesBuild: string | undefined;
let namesByContext: Map<DirectiveContext, ContextNames> | undefined;

/**
 * The names read in `context` at `target`, kept per target (a run has one, an editor mostly one too). A block's
 * frame keeps its context's map (directive-walk.ts), so each directive costs one lookup by name.
 */
export function contextNames(context: DirectiveContext, target: TableTarget): ContextNames {
  // One run asks with one version array: it is compared by identity before its text is looked up.
  if (target.version !== namesVersion || target.build !== namesBuild || !namesByContext) {
    const key = `${target.version ? target.version.join('.') : NO_TARGET} ${target.build ?? ''}`;
    namesByContext = byTargetContext.get(key);
    if (!namesByContext) byTargetContext.set(key, (namesByContext = new Map()));
    namesVersion = target.version;
    namesBuild = target.build;
  }
  let names = namesByContext.get(context);
  if (!names) namesByContext.set(context, (names = new Map()));
  return names;
}

/** A name the table does not have: not kept (an editor's typing makes any number of them). */
const UNKNOWN: NameInContext = { all: [], missing: false, picked: undefined };

/** What the table says of `name` in `context` at `target`, worked out and kept in `names` (contextNames' map). */
export function nameInContext(names: ContextNames, name: string, context: DirectiveContext, target: TableTarget): NameInContext {
  const known = names.get(name);
  if (known) return known;
  const all = directiveEntries(name);
  if (all.length === 0) return UNKNOWN;
  const missing = target.version !== undefined && !all.some((entry) => exists(entry, target));
  const entry = all.find((candidate) => exists(candidate, target) && allows(candidate, context));
  const read: NameInContext = { all, missing, picked: entry && { entry, at: entryAtTarget(entry, target.version) } };
  names.set(name, read);
  return read;
}
