// Typed access to nginx-value-syntax.json (made by scripts/directive-table/value-syntax.mjs from nginx's C sources):
// for each directive of nginx itself, the value its set handler parses (a flag, a size, a time, a number...), whether
// a block may hold it twice, and the parameter words listen / upstream server / rewrite compare their arguments with,
// each as every release from 1.22.1 to the table's newest has it. Third-party modules are not in it (their sources are
// read as tarballs the value reader does not walk): their values and repeats are not checked.
import syntax from './nginx-value-syntax.json' with { type: 'json' };
import { existsInVersion } from './directive-table.js';

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

/** The stored form as `version` has it (later changes undone), or the newest form without a version. */
function atVersion<T extends object>(stored: Stored<T> | undefined, version: readonly number[] | undefined): T | undefined {
  if (!stored) return undefined;
  const { since: _since, changes, ...newest } = stored;
  if (!version || !changes) return newest as unknown as T;
  const at: Record<string, unknown> = { ...newest };
  for (const change of [...changes].reverse()) {
    if (existsInVersion({ since: change.version }, version)) break;
    Object.assign(at, change.was);
  }
  return at as T;
}

/** Every recorded form, newest first: what some release accepts. */
function allForms<T extends object>(stored: Stored<T> | undefined): T[] {
  if (!stored) return [];
  const forms: T[] = [];
  const { since: _since, changes, ...newest } = stored;
  let at: Record<string, unknown> = { ...newest };
  forms.push(at as T);
  for (const change of [...(changes ?? [])].reverse()) {
    at = { ...at, ...change.was };
    forms.push(at as T);
  }
  return forms;
}

const keyOf = (entry: { module: string; name: string }): string => `${entry.module} ${entry.name}`;

/** The handler's syntax for a table entry at `version` (the newest without one); undefined for third-party modules. */
export function handlerSyntax(entry: { module: string; name: string }, version?: readonly number[]): HandlerSyntax | undefined {
  return atVersion(data.directives[keyOf(entry)], version);
}

/** The releases at which the entry's handler changed, with the form it had before each. */
export function handlerChanges(entry: { module: string; name: string }): readonly { version: string; was: Partial<HandlerSyntax> }[] {
  return (data.directives[keyOf(entry)]?.changes ?? []) as { version: string; was: Partial<HandlerSyntax> }[];
}

/**
 * The parameter words of a listen / upstream server / rewrite entry at `version`; without a version, every word any
 * release accepts.
 */
export function parameterWords(entry: { module: string; name: string }, version?: readonly number[]): ParameterWords | undefined {
  const stored = data.parameters[keyOf(entry)];
  if (version) return atVersion(stored, version);
  const forms = allForms(stored);
  if (forms.length === 0) return undefined;
  return {
    words: [...new Set(forms.flatMap((form) => form.words))],
    prefixes: [...new Set(forms.flatMap((form) => form.prefixes))],
  };
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
