// Typed access to nginx-value-syntax.json (made by scripts/directive-table/value-syntax.mjs from nginx's C sources):
// for each directive of nginx itself, the value its set handler parses (a flag, a size, a time, a number...), whether
// a block may hold it twice, and the parameter words listen / upstream server / rewrite compare their arguments with,
// each as every release from 1.22.1 to the table's newest has it. Third-party modules are not in it (their sources are
// read as tarballs the value reader does not walk): their values and repeats are not checked.
import syntax from './nginx-value-syntax.json' with { type: 'json' };
import { atOrAfter, existsInVersion } from './directive-table.js';

/** What the handler parses: the ngx_conf_set_*_slot kinds; `custom` for handlers of their own. */
export type ValueKind =
  | 'flag' | 'string' | 'number' | 'size' | 'offset' | 'msec' | 'sec' | 'bufs' | 'enum' | 'bitmask'
  | 'size-or-variables' | 'custom';

/**
 * `once`: a second one in a block is "is duplicate"; `yes`: the handler adds up; `mostly`: it adds up and refuses only
 * some combinations (`proxy_redirect off` with others), never reported; `unknown`: the handler's body was not read.
 */
export type Repeat = 'once' | 'yes' | 'mostly' | 'unknown';

export interface HandlerSyntax {
  value: ValueKind;
  repeat: Repeat;
}

export interface ParameterWords {
  /** Whole words (`ssl`, `backup`). */
  words: string[];
  /** Words with a value, up to and including `=` (`weight=`), or a prefix the parser compares (`ipv6only=o`). */
  prefixes: string[];
}

interface Versioned<T> {
  since?: string;
  changes?: { version: string; was: Partial<Record<keyof T, unknown>> }[];
}

type Stored<T> = T & Versioned<T>;

const data = syntax as unknown as {
  directives: Record<string, Stored<HandlerSyntax>>;
  parameters: Record<string, Stored<ParameterWords>>;
};

/**
 * A stored entry's forms, newest first: [0] the newest (without since/changes), [n] the form before its n newest
 * changes. Built once per entry: the directive rule asks per directive.
 */
const formsByStored = new WeakMap<object, readonly object[]>();

function storedForms<T extends object>(stored: Stored<T>): readonly T[] {
  let forms = formsByStored.get(stored);
  if (!forms) {
    const { since: _since, changes, ...newest } = stored;
    const built: object[] = [newest];
    let at: Record<string, unknown> = newest;
    for (let i = (changes?.length ?? 0) - 1; i >= 0; i--) {
      at = { ...at, ...changes![i]!.was };
      built.push(at);
    }
    forms = built;
    formsByStored.set(stored, forms);
  }
  return forms as readonly T[];
}

/** The stored form as `version` has it (later changes undone), or the newest form without a version. */
function atVersion<T extends object>(stored: Stored<T> | undefined, version: readonly number[] | undefined): T | undefined {
  if (!stored) return undefined;
  const forms = storedForms(stored);
  const changes = stored.changes;
  if (!version || !changes) return forms[0];
  let undone = 0;
  for (let i = changes.length - 1; i >= 0 && !atOrAfter(version, changes[i]!.version); i--) undone++;
  return forms[undone];
}

/** `module name`, the value syntax's key, by entry object (table entries and their forms live as long as the table). */
const keys = new WeakMap<object, string>();

function keyOf(entry: { module: string; name: string }): string {
  let key = keys.get(entry);
  if (key === undefined) {
    key = `${entry.module} ${entry.name}`;
    keys.set(entry, key);
  }
  return key;
}

/** The handler's syntax for a table entry at `version` (the newest without one); undefined for third-party modules. */
export function handlerSyntax(entry: { module: string; name: string }, version?: readonly number[]): HandlerSyntax | undefined {
  return atVersion(data.directives[keyOf(entry)], version);
}

/** The releases at which the entry's handler changed, with the form it had before each. */
export function handlerChanges(entry: { module: string; name: string }): readonly { version: string; was: Partial<HandlerSyntax> }[] {
  return (data.directives[keyOf(entry)]?.changes ?? []) as { version: string; was: Partial<HandlerSyntax> }[];
}

/** Every word any release accepts, by stored entry. */
const anyRelease = new WeakMap<object, ParameterWords>();

/**
 * The parameter words of a listen / upstream server / rewrite entry at `version`; without a version, every word any
 * release accepts. The same object on every call: read it, never change it.
 */
export function parameterWords(entry: { module: string; name: string }, version?: readonly number[]): ParameterWords | undefined {
  const stored = data.parameters[keyOf(entry)];
  if (!stored) return undefined;
  if (version) return atVersion(stored, version);
  let words = anyRelease.get(stored);
  if (!words) {
    const forms = storedForms(stored);
    words = {
      words: [...new Set(forms.flatMap((form) => form.words))],
      prefixes: [...new Set(forms.flatMap((form) => form.prefixes))],
    };
    anyRelease.set(stored, words);
  }
  return words;
}

/** The first release after `version` whose parameter words pass `test`, for "needs nginx X" notes. */
export function parameterSince(
  entry: { module: string; name: string },
  version: readonly number[],
  test: (words: ParameterWords) => boolean,
): string | undefined {
  const stored = data.parameters[keyOf(entry)];
  for (const change of stored?.changes ?? []) {
    if (existsInVersion({ since: change.version }, version)) continue;
    const at = atVersion(stored, change.version.split('.').map(Number));
    if (at && test(at)) return change.version;
  }
  return undefined;
}

/** The first release after `version` whose handler is `kind`, for "needs nginx X" notes (variables in a size...). */
export function handlerSince(entry: { module: string; name: string }, version: readonly number[], kind: ValueKind): string | undefined {
  const stored = data.directives[keyOf(entry)];
  for (const change of stored?.changes ?? []) {
    if (existsInVersion({ since: change.version }, version)) continue;
    if (atVersion(stored, change.version.split('.').map(Number))?.value === kind) return change.version;
  }
  return undefined;
}
