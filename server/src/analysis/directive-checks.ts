// What nginx's ngx_conf_handler and the common slot handlers reject, for one directive in one context, decided from
// the directive table: an unknown name (or one of a dynamic module not loaded, or of another nginx release), a name
// not allowed in the context, a wrong number of arguments, a word that is not one of a flag's or enum's values, and
// a second occurrence of a directive whose handler refuses it. Each check answers what nginx -t would say first.
import type { DirectiveContext, DirectiveEntry } from '../model/directive-table.js';
import { argumentCountValid, directiveEntries, entryAtVersion, existsInVersion, moduleInfo, valueAccepted } from '../model/directive-table.js';
import { buildsBackporting, distributionBuild } from '../model/distribution-builds.js';
import type { Directive } from '../model/types.js';
import { refusesSecond } from './directive-duplicates.js';
import { suggestDirective } from './directive-suggestion.js';
import { valueCheck, type ValueCheck, type ValueProblem } from './directive-values.js';
import type { BlockFrame } from './directive-walk.js';
import type { EmptyUpstreamProblem } from './empty-upstream.js';
import type { LocationNestingProblem } from './location-nesting.js';
import type { MapEntryProblem } from './map-entries.js';

export type DirectiveProblem =
  | { kind: 'unknown'; suggestion?: string }
  | { kind: 'not-loaded'; module: string; debianPackage: string }
  /** `backportedIn`: distribution builds of the target's release that have it (model/distribution-builds.ts). */
  | { kind: 'version'; since?: string; until?: string; backportedIn?: string[] }
  | { kind: 'not-allowed'; context: DirectiveContext; allowed: (DirectiveContext | 'any')[] }
  /** `since`: a later release takes this many (`keepalive 16 local` before 1.29.7). */
  | { kind: 'arguments'; expected: string; given: number; since?: string }
  /** `since`: a later release accepts the value (`proxy_http_version 2` before 1.29.4). */
  | { kind: 'value'; value: string; accepted: string[]; since?: string }
  | { kind: 'duplicate'; first: Directive }
  | { kind: 'upstream-port'; host: string; port: number; upstream: Directive; otherRoot: boolean }
  | LocationNestingProblem
  | EmptyUpstreamProblem
  | MapEntryProblem
  | ValueProblem;

export interface CheckEnvironment {
  /** [major, minor, patch], or undefined: any release the table knows counts. */
  version: readonly number[] | undefined;
  extra: ReadonlySet<string>;
  /** A load_module of a .so the table does not know: its directives may be anything, so unknown names pass. */
  unknownModuleLoaded: boolean;
  /** The distribution build nginx is (options.nginxBuild): the directives it backported exist. */
  build?: string;
  /** Whether the Debian package providing a dynamic module is (or may be) loaded. */
  packageLoaded(debianPackage: string): boolean;
}

/** What the check reads of one entry at one target release (or at none), worked out once per entry and target. */
interface EntryAtTarget {
  /** The entry as each release the check should accept has it: the target's, or (no target) every recorded form. */
  forms: readonly DirectiveEntry[];
  /** In the target release (true without one). */
  inVersion: boolean;
  /** The Debian package of a dynamic module's entry (not for static ones). */
  debianPackage: string | undefined;
  refusesSecond: boolean;
  /** What its handler refuses about the values; undefined when it parses none the check judges. */
  values: ValueCheck | undefined;
}

const NO_TARGET = 'any';
const byTarget = new Map<string, WeakMap<DirectiveEntry, EntryAtTarget>>();
let lastVersion: readonly number[] | undefined;
let lastTarget: WeakMap<DirectiveEntry, EntryAtTarget> | undefined;

function entryAtTarget(entry: DirectiveEntry, version: readonly number[] | undefined): EntryAtTarget {
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
    known = {
      forms,
      inVersion: !version || existsInVersion(entry, version),
      debianPackage: debian === 'static' ? undefined : debian,
      refusesSecond: refusesSecond(entry, version),
      values: valueCheck(entry, version),
    };
    lastTarget.set(entry, known);
  }
  return known;
}

/** A version just before `release` ("1.29.7" -> 1.29.6, "1.25.0" -> 1.24.999), to read the entry as it was then. */
function releaseBefore(release: string): number[] {
  const [major = 0, minor = 0, patch = 0] = release.split('.').map(Number);
  return patch > 0 ? [major, minor, patch - 1] : [major, minor - 1, 999];
}

/** The first release whose form of `entry` passes `test` (entry.changes are in release order), after `version`. */
function acceptedSince(entry: DirectiveEntry, version: readonly number[] | undefined, test: (form: DirectiveEntry) => boolean): string | undefined {
  if (!version) return undefined;
  const later = (entry.changes ?? []).filter((change) => !existsInVersion({ since: change.version }, version));
  return later.find((change) => test(entryAtVersion(entry, change.version.split('.').map(Number))))?.version;
}

/** In the target release, or backported into the target's distribution build. */
function exists(entry: DirectiveEntry, env: CheckEnvironment): boolean {
  if (!env.version || entryAtTarget(entry, env.version).inVersion) return true;
  return env.build !== undefined && distributionBuild(env.build)?.backports.has(entry.name) === true;
}

const allows = (entry: DirectiveEntry, context: DirectiveContext): boolean =>
  entry.contexts.includes(context) || entry.contexts.includes('any');

function nameProblem(name: string, entries: readonly DirectiveEntry[], env: CheckEnvironment): DirectiveProblem | undefined {
  if (entries.length === 0) {
    if (env.unknownModuleLoaded) return undefined;
    const suggestion = suggestDirective(name);
    return suggestion ? { kind: 'unknown', suggestion } : { kind: 'unknown' };
  }
  if (env.version && !entries.some((entry) => exists(entry, env))) {
    const since = entries.map((entry) => entry.since).filter((v): v is string => v !== undefined)[0];
    const until = entries.map((entry) => entry.until).filter((v): v is string => v !== undefined)[0];
    const builds = since ? buildsBackporting(name, env.version).map((build) => build.id) : [];
    return { kind: 'version', ...(since ? { since } : {}), ...(until ? { until } : {}), ...(builds.length > 0 ? { backportedIn: builds } : {}) };
  }
  return undefined;
}

/** Whether a template or an envsubst placeholder decides the arguments: their count and words are unknown here. */
function rendered(directive: Directive): boolean {
  for (const arg of directive.args) if (arg.templated || arg.value.includes('${')) return true;
  return false;
}

/**
 * Whether the argument count and words are judged: not for `if` (it keeps its condition apart), nor where an argument
 * a template renders may become any number of words, or any word. `${VAR}` is an envsubst placeholder (the official
 * docker image renders *.template files with it).
 */
const judged = (directive: Directive): boolean => directive.name !== 'if' && !rendered(directive);

function countProblem(directive: Directive, entry: DirectiveEntry, at: EntryAtTarget, env: CheckEnvironment): DirectiveProblem | undefined {
  const variants = at.forms;
  const count = directive.args.length;
  for (const form of variants) if (argumentCountValid(form, count)) return undefined;
  if (!judged(directive)) return undefined;
  const since = acceptedSince(entry, env.version, (form) => argumentCountValid(form, count));
  const expected = env.version ? variants[0]!.args : entry.args;
  return { kind: 'arguments', expected, given: count, ...(since ? { since } : {}) };
}

/** A flag's or enum's word (compared as nginx does, ignoring case), then what the handler itself parses. */
function wordProblem(directive: Directive, entry: DirectiveEntry, at: EntryAtTarget, env: CheckEnvironment): DirectiveProblem | undefined {
  const variants = at.forms;
  const args = directive.args;
  let checked = variants[0]!;
  for (const form of variants) {
    if (argumentCountValid(form, args.length)) {
      checked = form;
      break;
    }
  }
  const values = checked.values && (checked.args === 'flag' || checked.args === '1' || checked.multiple) ? checked.values : undefined;
  // The arguments are read only where something judges them: most directives' handlers take any word.
  if ((!values && !at.values) || !judged(directive)) return undefined;
  if (values) {
    for (let i = 0; i < (checked.multiple ? args.length : Math.min(1, args.length)); i++) {
      const arg = args[i]!;
      // nginx never expands a variable here, but `$NAME` in a flag's place is a placeholder some template fills in.
      if (arg.value.startsWith('$') || variants.some((form) => valueAccepted(form, arg.value) !== false)) continue;
      const since = acceptedSince(entry, env.version, (form) => valueAccepted(form, arg.value) === true);
      return { kind: 'value', value: arg.value, accepted: values, ...(since ? { since } : {}) };
    }
  }
  return at.values?.(directive);
}

/**
 * An unknown name in a template. One a template action renders part of (`{{ $.X }}_timeout`, `proxy_{{ .Y }}`) is
 * only known after rendering. A literal one is reported when it is a misspelling of a known directive
 * (`proxy_set_version 1.1;` in a Dokku sigil: did you mean proxy_http_version?); one close to no known name is not,
 * as templates are rendered for builds whose modules no source the table reads has (NGINX Plus's `sticky`, an
 * ingress controller's `app_protect_*`, the corpus's `track_uploads`).
 */
function templateNameProblem(directive: Directive, env: CheckEnvironment): DirectiveProblem | undefined {
  if (env.unknownModuleLoaded || nameFromTemplate(directive)) return undefined;
  const suggestion = suggestDirective(directive.name);
  return suggestion ? { kind: 'unknown', suggestion } : undefined;
}

/**
 * Whether a template action renders (part of) the directive's name: the name holds one, or one is glued to it (the
 * model's name is then the literal part only). A control tag glued before it (`{% if a %}proxy_x`) renders nothing,
 * but is counted too: where a tag ends and text starts is the dialect's business, and a miss is only a finding unsaid.
 */
function nameFromTemplate(directive: Directive): boolean {
  const { name, nameSpan, file } = directive;
  if (TEMPLATE_MARKS.some((mark) => name.includes(mark))) return true;
  const before = file.text.slice(Math.max(0, nameSpan.startOffset - 2), nameSpan.startOffset);
  const after = file.text.slice(nameSpan.endOffset, nameSpan.endOffset + 2);
  return before === '}}' || before === '%}' || after === '{{' || after === '{%';
}

const TEMPLATE_MARKS = ['{{', '}}', '{%', '%}'];

/**
 * Where the name's entries of the target allow it, once per name and target: a snippet read in a context it was not
 * written for meets this for most of its directives. Shared by the problems: read it, never change it.
 */
interface AllowedAt {
  version: readonly number[] | undefined;
  build: string | undefined;
  allowed: (DirectiveContext | 'any')[];
}
const allowedByEntries = new WeakMap<readonly DirectiveEntry[], AllowedAt>();

function allowedContexts(all: readonly DirectiveEntry[], env: CheckEnvironment): (DirectiveContext | 'any')[] {
  const known = allowedByEntries.get(all);
  if (known && known.version === env.version && known.build === env.build) return known.allowed;
  const present = env.version ? all.filter((candidate) => exists(candidate, env)) : all;
  const allowed = [...new Set(present.flatMap((candidate) => candidate.contexts))];
  allowedByEntries.set(all, { version: env.version, build: env.build, allowed });
  return allowed;
}

/** What nginx would reject about `directive` read in `frame`, or undefined. Records it as the block's first of its name. */
export function checkDirective(directive: Directive, frame: BlockFrame, env: CheckEnvironment): DirectiveProblem | undefined {
  const name = directive.name;
  if (env.extra.has(name)) return undefined;
  const all = directiveEntries(name);
  if (all.length === 0 && directive.file.isTemplate) return templateNameProblem(directive, env);
  const named = nameProblem(name, all, env);
  if (named || all.length === 0) return named;
  // nginx takes the first module that has the directive in the target and allows it here.
  let entry: DirectiveEntry | undefined;
  for (const candidate of all) {
    if (exists(candidate, env) && allows(candidate, frame.context)) {
      entry = candidate;
      break;
    }
  }
  // A block where the table has none, or none where it has one: the syntax rule's (`{placeholder}` words read as
  // blocks by nginx's tokenizer); its arguments are not what they seem.
  if (entry && Boolean(entry.block) !== Boolean(directive.blockSpan)) return undefined;
  // In a template, blocks may open and close in actions or defines rendered elsewhere: where a directive lands and
  // what else its block holds is only known after rendering.
  const template = directive.file.isTemplate;
  if (!entry && template) return undefined;
  if (!entry) return { kind: 'not-allowed', context: frame.context, allowed: allowedContexts(all, env) };
  const at = entryAtTarget(entry, env.version);
  const debianPackage = at.debianPackage;
  if (debianPackage && !env.packageLoaded(debianPackage)) return { kind: 'not-loaded', module: entry.module, debianPackage };
  const count = countProblem(directive, entry, at, env);
  if (count) return count;
  // nginx's handlers refuse a second occurrence before they read its value (`if (*fp != NGX_CONF_UNSET)`).
  const first = frame.firstByName?.get(name);
  if (!first) (frame.firstByName ??= new Map()).set(name, directive);
  // Two occurrences in different template branches may never be rendered together.
  else if (!template && at.refusesSecond) return { kind: 'duplicate', first };
  return wordProblem(directive, entry, at, env);
}
