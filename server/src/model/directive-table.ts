// Typed access to the directive table generated from nginx's C sources (nginx-directives.json, made by
// scripts/directive-table/generate.mjs): which module provides a directive, where nginx allows it, how many arguments
// it takes, its flag/enum values, its default and the variables each module defines. Completion, hover and the
// `directive` rule read nginx's rules here instead of keeping lists of their own.
import table from './nginx-directives.json' with { type: 'json' };

/** nginx's contexts, precise: `if` in a server and in a location differ, as do http, stream and mail servers. */
export type DirectiveContext =
  | 'main' | 'events' | 'http' | 'server' | 'location' | 'upstream' | 'if-in-server' | 'if-in-location' | 'limit_except'
  | 'stream' | 'stream-server' | 'stream-upstream' | 'mail' | 'mail-server'
  | 'rtmp' | 'rtmp-server' | 'rtmp-application' | 'rtmp-recorder';

export interface DirectiveChange {
  /** The release whose source first has the new rule. */
  version: string;
  /** The fields as they were before it; null where the field was absent. */
  was: Partial<Record<'contexts' | 'args' | 'block' | 'body' | 'values' | 'multiple' | 'default' | 'deprecated', unknown>>;
}

export interface DirectiveEntry {
  name: string;
  /** The nginx module (ngx_http_proxy_module) that defines it. */
  module: string;
  /** Where it is allowed; `any` for include (nginx's NGX_CONF_MODULE). */
  contexts: (DirectiveContext | 'any')[];
  /** Argument rule: counts joined by `|` ("1|2"), "1+", "2+", "flag" (exactly one: on|off) or "any". */
  args: string;
  /** Opens a `{}` block. */
  block?: true;
  /** "custom": the block's body is read by the module itself (map, geo, types, ...), not as directives. */
  body?: 'custom';
  /** Words nginx accepts: on/off for flags, the enum or bitmask words otherwise. */
  values?: string[];
  /** A bitmask: several of `values` may be given. */
  multiple?: true;
  /** The default as config text, where the source fixes one. */
  default?: string;
  /** Deprecated in favour of this directive. */
  deprecated?: string;
  /** The C preprocessor condition the entry is compiled under (NGX_HTTP_SSL, NGX_HTTP_CACHE...). */
  when?: string;
  /** First release with it (absent: present in 1.22.1 already). */
  since?: string;
  /** First release without it. */
  until?: string;
  changes?: DirectiveChange[];
  description?: string;
}

export interface ModuleInfo {
  /** nginx.org page (nginx modules; a directive's link adds `#name`) or the project page (third-party modules). */
  docs: string;
  /** Debian 12: "static" (in /usr/sbin/nginx), or the libnginx-mod-* package with the .so; absent when not built. */
  debian?: string;
  /** Third-party modules: the Debian source package and version read. */
  package?: string;
  since?: string;
  until?: string;
}

export interface VariableEntry {
  /** Without the `$`; a prefix variable ends with `_` (`http_` matches `$http_user_agent`). */
  name: string;
  module: string;
  protocol: 'http' | 'stream';
  prefix?: true;
  when?: string;
  since?: string;
  until?: string;
}

interface Table {
  oldest: string;
  newest: string;
  modules: Record<string, ModuleInfo>;
  directives: DirectiveEntry[];
  variables: VariableEntry[];
}

const data = table as unknown as Table;

/** The releases the table was read from: 1.22.1 (Debian 12) up to the newest nginx release read. */
export const TABLE_VERSIONS = { oldest: data.oldest, newest: data.newest } as const;

const byName = new Map<string, DirectiveEntry[]>();
for (const entry of data.directives) {
  const list = byName.get(entry.name);
  if (list) list.push(entry);
  else byName.set(entry.name, [entry]);
}

/** Every entry of a directive name (several modules may define one: `server`, `listen`, `proxy_pass`...). */
export function directiveEntries(name: string): readonly DirectiveEntry[] {
  return byName.get(name) ?? [];
}

export function allDirectives(): readonly DirectiveEntry[] {
  return data.directives;
}

export function moduleInfo(module: string): ModuleInfo | undefined {
  return data.modules[module];
}

export interface ModuleSets {
  /** "1.22.1–1.31.5": the nginx releases whose sources were read (every module in them). */
  nginx: string;
  /** Debian 12's libnginx-mod-* packages the table has directives of. */
  debianPackages: string[];
  /** Third-party modules outside Debian (their project's name and version). */
  others: string[];
}

let sets: ModuleSets | undefined;

/** What a name was checked against when no entry has it: for the message of an unknown directive. */
export function moduleSets(): ModuleSets {
  if (sets) return sets;
  const debian = new Set<string>();
  const others = new Set<string>();
  for (const info of Object.values(data.modules)) {
    if (info.debian && info.debian !== 'static') debian.add(info.debian);
    else if (info.package) others.add(info.package);
  }
  sets = { nginx: `${data.oldest}–${data.newest}`, debianPackages: [...debian].sort(), others: [...others].sort() };
  return sets;
}

/** The entry of `name` that nginx would use in `context`, if any (nginx takes the first module allowing it there). */
export function directiveIn(name: string, context: DirectiveContext): DirectiveEntry | undefined {
  return directiveEntries(name).find((entry) => entry.contexts.includes(context) || entry.contexts.includes('any'));
}

export function isAllowedIn(name: string, context: DirectiveContext): boolean {
  return directiveIn(name, context) !== undefined;
}

/** The counts 0-7 an `args` rule of `|`-joined counts allows, as bits (bit n: n arguments); parsed once per rule. */
const countMasks = new Map<string, number>();

function countMask(args: string): number {
  let mask = countMasks.get(args);
  if (mask === undefined) {
    mask = 0;
    for (const count of args.split('|').map(Number)) if (Number.isInteger(count) && count >= 0 && count <= 7) mask |= 1 << count;
    countMasks.set(args, mask);
  }
  return mask;
}

/** Whether `count` arguments pass nginx's argument-count check for this entry (ngx_conf_handler). */
export function argumentCountValid(entry: DirectiveEntry, count: number): boolean {
  switch (entry.args) {
    case 'any':
      return true;
    case 'flag':
      return count === 1;
    case '1+':
      return count >= 1;
    case '2+':
      return count >= 2;
    default:
      // nginx counts at most 8 words (the name and 7 arguments) against the TAKEn bits.
      return count >= 0 && count <= 7 && ((countMask(entry.args) >> count) & 1) === 1;
  }
}

/** A flag's or enum's words in lower case, by the entry's list (its forms at other releases share the list). */
const lowerValues = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether `word` is one nginx accepts for a flag or enum argument; undefined when the entry has no fixed words. */
export function valueAccepted(entry: DirectiveEntry, word: string): boolean | undefined {
  const values = entry.values;
  if (!values) return undefined;
  // nginx compares flag, enum and bitmask words case-insensitively (ngx_strcasecmp in ngx_conf_set_flag_slot,
  // _enum_slot and _bitmask_slot): `ssl_protocols tlsv1.2`, `gzip_proxied ANY` and `server_tokens Build` are valid.
  let lower = lowerValues.get(values);
  if (!lower) {
    lower = new Set(values.map((value) => value.toLowerCase()));
    lowerValues.set(values, lower);
  }
  return lower.has(word.toLowerCase());
}

/** The nginx.org link for a directive (`...ngx_http_proxy_module.html#proxy_pass`), or the module's project page. */
export function docsUrl(entry: DirectiveEntry): string | undefined {
  const info = data.modules[entry.module];
  if (!info) return undefined;
  return info.package ? info.docs : `${info.docs}#${entry.name}`;
}

/** "1.29.7" as [1, 29, 7]: the table's few release strings, parsed once each. */
const parsedReleases = new Map<string, readonly number[]>();

function parsedRelease(text: string): readonly number[] {
  let parts = parsedReleases.get(text);
  if (!parts) {
    parts = text.split('.').map(Number);
    parsedReleases.set(text, parts);
  }
  return parts;
}

/** `version` compared with the release `text`: negative when older, 0 when the same, positive when newer. */
function compareRelease(version: readonly number[], text: string): number {
  const parts = parsedRelease(text);
  for (let i = 0; i < 3; i++) {
    const d = (version[i] ?? 0) - (parts[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether nginx `version` is release `text` or a later one. */
export function atOrAfter(version: readonly number[], text: string): boolean {
  return compareRelease(version, text) >= 0;
}

/** Whether the entry exists in nginx `version` ([major, minor, patch]); third-party entries carry no versions. */
export function existsInVersion(entry: { since?: string; until?: string }, version: readonly number[]): boolean {
  if (entry.since && compareRelease(version, entry.since) < 0) return false;
  if (entry.until && compareRelease(version, entry.until) >= 0) return false;
  return true;
}

export function allVariables(): readonly VariableEntry[] {
  return data.variables;
}

/**
 * The table entry for a variable name (without `$`) in a protocol: an exact name, else the longest prefix variable
 * it starts with (`http_user_agent` -> `http_`). Regex captures ($1) and user variables are not in the table.
 */
export function variableEntry(name: string, protocol: 'http' | 'stream' = 'http'): VariableEntry | undefined {
  let best: VariableEntry | undefined;
  for (const variable of data.variables) {
    if (variable.protocol !== protocol) continue;
    if (!variable.prefix && variable.name === name) return variable;
    if (variable.prefix && name.startsWith(variable.name) && name.length > variable.name.length) {
      if (!best || variable.name.length > best.name.length) best = variable;
    }
  }
  return best;
}

/**
 * An entry's forms by how many of its newest changes are undone: [0] is the entry itself, [n] the entry before its n
 * newest changes (a `was` of null means the field was absent then). Built once per entry: the rules ask per directive.
 */
const undoneForms = new WeakMap<DirectiveEntry, readonly DirectiveEntry[]>();

function formsUndone(entry: DirectiveEntry, changes: readonly DirectiveChange[]): readonly DirectiveEntry[] {
  let forms = undoneForms.get(entry);
  if (!forms) {
    const built: DirectiveEntry[] = [entry];
    const at: Record<string, unknown> = { ...entry };
    for (let i = changes.length - 1; i >= 0; i--) {
      for (const [field, was] of Object.entries(changes[i]!.was)) {
        if (was === null) delete at[field];
        else at[field] = was;
      }
      built.push({ ...at } as unknown as DirectiveEntry);
    }
    forms = built;
    undoneForms.set(entry, forms);
  }
  return forms;
}

/**
 * The entry as nginx `version` has it: the `changes` made after `version` undone, newest first (a `was` of null means
 * the field was absent then). Without changes the entry itself. The same object for every version with that form.
 */
export function entryAtVersion(entry: DirectiveEntry, version: readonly number[]): DirectiveEntry {
  const changes = entry.changes;
  if (!changes) return entry;
  let undone = 0;
  for (let i = changes.length - 1; i >= 0 && !atOrAfter(version, changes[i]!.version); i--) undone++;
  return undone === 0 ? entry : formsUndone(entry, changes)[undone]!;
}

/** The nginx.org anchor of a built-in variable (`...ngx_http_core_module.html#var_remote_addr`), or the project page. */
export function variableDocsUrl(variable: VariableEntry): string | undefined {
  const info = data.modules[variable.module];
  if (!info) return undefined;
  return info.package ? info.docs : `${info.docs}#var_${variable.name}`;
}
