// What nginx's ngx_conf_handler and the common slot handlers reject, for one directive in one context, decided from
// the directive table: an unknown name (or one of a dynamic module not loaded, or of another nginx release), a name
// not allowed in the context, a wrong number of arguments, a word that is not one of a flag's or enum's values, and
// a second occurrence of a directive whose handler refuses it. Each check answers what nginx -t would say first.
import type { DirectiveContext, DirectiveEntry } from '../model/directive-table.js';
import { argumentCountValid, entryAtVersion, existsInVersion, valueAccepted } from '../model/directive-table.js';
import { buildsBackporting } from '../model/distribution-builds.js';
import type { Directive } from '../model/types.js';
import { contextNames, countAccepted, exists, nameInContext, type EntryAtTarget, type TableTarget } from './directive-plan.js';
import { suggestDirective } from './directive-suggestion.js';
import type { ValueProblem } from './directive-values.js';
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

export interface CheckEnvironment extends TableTarget {
  extra: ReadonlySet<string>;
  /** A load_module of a .so the table does not know: its directives may be anything, so unknown names pass. */
  unknownModuleLoaded: boolean;
  /** Whether the Debian package providing a dynamic module is (or may be) loaded. */
  packageLoaded(debianPackage: string): boolean;
}

/** The first release whose form of `entry` passes `test` (entry.changes are in release order), after `version`. */
function acceptedSince(entry: DirectiveEntry, version: readonly number[] | undefined, test: (form: DirectiveEntry) => boolean): string | undefined {
  if (!version) return undefined;
  const later = (entry.changes ?? []).filter((change) => !existsInVersion({ since: change.version }, version));
  return later.find((change) => test(entryAtVersion(entry, change.version.split('.').map(Number))))?.version;
}

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
  const args = directive.args;
  for (let i = 0; i < args.length; i++) if (args[i]!.templated || args[i]!.value.includes('${')) return true;
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
  if (countAccepted(at, count) || !judged(directive)) return undefined;
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

/**
 * What nginx would reject about `directive` read in `frame`, or undefined. Records it as the block's first of its name
 * when nginx refuses a second one.
 */
export function checkDirective(directive: Directive, frame: BlockFrame, env: CheckEnvironment): DirectiveProblem | undefined {
  const name = directive.name;
  if (env.extra.has(name)) return undefined;
  const names = (frame.names ??= contextNames(frame.context, env));
  const read = nameInContext(names, name, frame.context, env);
  const all = read.all;
  if (all.length === 0 && directive.file.isTemplate) return templateNameProblem(directive, env);
  if (all.length === 0 || read.missing) return nameProblem(name, all, env);
  // nginx takes the first module that has the directive in the target and allows it here.
  const picked = read.picked;
  // In a template, blocks may open and close in actions or defines rendered elsewhere: where a directive lands and
  // what else its block holds is only known after rendering.
  const template = directive.file.isTemplate;
  if (!picked) return template ? undefined : { kind: 'not-allowed', context: frame.context, allowed: allowedContexts(all, env) };
  const { entry, at } = picked;
  // A block where the table has none, or none where it has one: the syntax rule's (`{placeholder}` words read as
  // blocks by nginx's tokenizer); its arguments are not what they seem.
  if (Boolean(entry.block) !== Boolean(directive.blockSpan)) return undefined;
  const debianPackage = at.debianPackage;
  if (debianPackage && !env.packageLoaded(debianPackage)) return { kind: 'not-loaded', module: entry.module, debianPackage };
  if (!countAccepted(at, directive.args.length)) {
    const count = countProblem(directive, entry, at, env);
    if (count) return count;
  }
  // nginx's handlers refuse a second occurrence before they read its value (`if (*fp != NGX_CONF_UNSET)`). Only a
  // name that refuses one is recorded: every directive of a name in one block picks the same entry (same context
  // and target), so a name whose entry repeats freely never reads its record.
  if (at.refusesSecond) {
    const first = frame.firstByName?.get(name);
    if (!first) (frame.firstByName ??= new Map()).set(name, directive);
    // Two occurrences in different template branches may never be rendered together.
    else if (!template) return { kind: 'duplicate', first };
  }
  // The arguments are read only where something judges them: most directives' handlers take any word.
  return at.readsWords ? wordProblem(directive, entry, at, env) : undefined;
}
