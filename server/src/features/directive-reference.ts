// The directive table (model/directive-table.ts) and nginx.org's reference (model/nginx-docs.ts) as Markdown: the
// syntax line, what a directive does, where nginx allows it, its default in the assumed nginx and the releases that
// changed it, module, versions, the parameters added since 1.22.1, and the nginx.org link; and the same for built-in variables. Hover and the
// completion items' documentation both show these, so the two never say different things.
//
//   targetVersion(options)                    the version entries are shown for (undefined: before 1.29.7)
//   pickEntry(name, context, version)         the entry nginx would use for `name` in `context`
//   directiveReference(entry, version)        Markdown lines
//   variableReference(variable)               Markdown lines for a built-in `$variable`
import {
  allDirectives,
  directiveEntries,
  docsUrl,
  entryAtVersion,
  existsInVersion,
  moduleInfo,
  TABLE_VERSIONS,
  variableDocsUrl,
  type DirectiveContext,
  type DirectiveEntry,
  type VariableEntry,
} from '../model/directive-table.js';
import { compareVersions, formatVersion, MODERN_KEEPALIVE_VERSION, type NginxVersion } from '../analysis/versions.js';
import { directiveDocs, type DirectiveDocs } from '../model/nginx-docs.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { featureOptions } from './context.js';
import { code } from './markdown.js';

/**
 * The version the table is read for. No target means what every rule assumes then, nginx before 1.29.7: the last
 * release before it stands in, so directives added in 1.29.7 or later are left out.
 */
export function targetVersion(options: AnalyzeOptions): NginxVersion {
  const [major, minor, patch] = MODERN_KEEPALIVE_VERSION;
  return featureOptions(options).nginxVersion ?? [major, minor, patch - 1];
}

/** The entry nginx uses for `name` in `context` in `version`; else any entry of the name (for a misplaced one). */
export function pickEntry(name: string, context: DirectiveContext | undefined, version: NginxVersion): DirectiveEntry | undefined {
  const entries = directiveEntries(name);
  const inVersion = entries.filter((entry) => existsInVersion(entry, version));
  const allowed = (entry: DirectiveEntry) => context !== undefined && (entry.contexts.includes(context) || entry.contexts.includes('any'));
  const chosen = inVersion.find(allowed) ?? entries.find(allowed) ?? inVersion[0] ?? entries[0];
  return chosen && entryAtVersion(chosen, version);
}

const CONTEXT_LABEL: Partial<Record<DirectiveContext | 'any', string>> = {
  'if-in-server': 'if in server',
  'if-in-location': 'if in location',
  'stream-server': 'stream server',
  'stream-upstream': 'stream upstream',
  'mail-server': 'mail server',
  'rtmp-server': 'rtmp server',
  'rtmp-application': 'rtmp application',
  'rtmp-recorder': 'rtmp recorder',
  any: 'any context',
};

export function contextLabel(context: DirectiveContext | 'any'): string {
  return CONTEXT_LABEL[context] ?? context;
}

export function contextsLabel(entry: DirectiveEntry): string {
  return entry.contexts.map(contextLabel).join(', ');
}

function argumentsLabel(entry: DirectiveEntry): string {
  if (entry.args === 'flag') return '`on` | `off`';
  if (entry.values) return entry.values.map((value) => code(value)).join(entry.multiple ? ' ' : ' | ') + (entry.multiple ? ' (one or more)' : '');
  switch (entry.args) {
    case '0':
      return 'none';
    case 'any':
      return 'any number';
    case '1+':
      return '1 or more';
    case '2+':
      return '2 or more';
    default:
      return entry.args.split('|').join(' or ');
  }
}

/** The module, and for one outside nginx's own binary the Debian package that carries it. */
export function moduleLabel(module: string): string {
  const info = moduleInfo(module);
  if (!info?.debian || info.debian === 'static') return module;
  return `${module} (${info.debian})`;
}

/** The documented version as [major, minor, patch]. */
function parsed(text: string): NginxVersion {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
}

const after = (version: NginxVersion, release: string) => compareVersions(version, parsed(release)) >= 0;

interface DefaultChange {
  version: string;
  /** The default before `version`: the argument texts, none when empty. */
  was: string[];
}

/**
 * When the default changed: from the C sources (the table's changes; one whose earlier default the source did not
 * fix says nothing, so it is left out) and from the documentation's corrections (`keepalive`: none before 1.29.7).
 */
function defaultChanges(entry: DirectiveEntry, docs: DirectiveDocs | undefined): DefaultChange[] {
  const changes: DefaultChange[] = [];
  for (const change of entry.changes ?? []) {
    const was = change.was.default;
    if (typeof was === 'string') changes.push({ version: change.version, was: [was] });
  }
  for (const change of docs?.defaultChanges ?? []) if (!changes.some((known) => known.version === change.version)) changes.push(change);
  return changes.sort((a, b) => compareVersions(parsed(a.version), parsed(b.version)));
}

function statement(name: string, args: readonly string[]): string {
  return args.length === 0 ? 'none' : args.map((arg) => code(`${name} ${arg};`)).join(' and ');
}

/**
 * The default in `version` (the C sources' where they fix one, else the recorded change after `version`, else what
 * nginx.org documents, today's) and, when it changed, every era: `none` before 1.29.7 · `keepalive 32 local;` since.
 */
function defaultLines(entry: DirectiveEntry, docs: DirectiveDocs | undefined, version: NginxVersion): string[] {
  const changes = defaultChanges(entry, docs);
  const written = allDirectives().find((candidate) => candidate.name === entry.name && candidate.module === entry.module) ?? entry;
  const newest = written.default !== undefined ? [written.default] : docs?.default ?? [];
  const later = changes.find((change) => !after(version, change.version));
  const now = entry.default !== undefined ? [entry.default] : later ? later.was : newest;
  if (changes.length === 0) return now.length > 0 ? [`- Default: ${statement(entry.name, now)}`] : [];
  const eras = changes.map((change, i) => `${statement(entry.name, change.was)} ${i === 0 ? 'before' : 'since'} ${i === 0 ? change.version : changes[i - 1]!.version}`);
  eras.push(`${statement(entry.name, newest)} since ${changes.at(-1)!.version}`);
  return [`- Default: ${statement(entry.name, now)} in nginx ${formatVersion(version)}`, `- Default by release: ${eras.join(' · ')}`];
}

function versionLine(entry: DirectiveEntry, docs: DirectiveDocs | undefined, version: NginxVersion): string | undefined {
  const parts: string[] = [];
  const since = entry.since ?? docs?.since;
  if (since) parts.push(`added in nginx ${since}`);
  if (entry.until) parts.push(`removed in nginx ${entry.until}`);
  if (entry.deprecated) parts.push(`deprecated: use ${code(entry.deprecated)}`);
  if (parts.length === 0) return undefined;
  const available = existsInVersion(entry, version) ? `in nginx ${formatVersion(version)}` : `**not in nginx ${formatVersion(version)}**`;
  return `Versions: ${parts.join(' · ')} (${available})`;
}

/** The parameters added after the oldest release the table reads, with whether the assumed nginx has them. */
function parameterLine(docs: DirectiveDocs | undefined, version: NginxVersion): string | undefined {
  const dated = Object.entries(docs?.params ?? {}).filter(([, since]) => since !== '' && !after(parsed(TABLE_VERSIONS.oldest), since));
  if (dated.length === 0) return undefined;
  const shown = dated.map(([word, since]) => `${code(word)} ${since}${after(version, since) ? '' : ` (**not in nginx ${formatVersion(version)}**)`}`);
  return `- Parameters added: ${shown.join(' · ')}`;
}

/** A directive's reference: headline, syntax, description, arguments, default, contexts, versions and link. */
export function directiveReference(entry: DirectiveEntry, version: NginxVersion): string[] {
  const docs = directiveDocs(entry);
  const lines = [`**${entry.name}** · ${code(moduleLabel(entry.module))}`, ''];
  if (docs && docs.syntax.length > 0) lines.push('```nginx', docs.syntax.join('\n'), '```', '');
  const description = docs?.text || entry.description;
  if (description) lines.push(description, '');
  lines.push(`- Arguments: ${argumentsLabel(entry)}${entry.block ? ', then a `{ }` block' : ''}`);
  for (const line of defaultLines(entry, docs, version)) lines.push(line);
  lines.push(`- Context: ${contextsLabel(entry)}`);
  const versions = versionLine(entry, docs, version);
  if (versions) lines.push(`- ${versions}`);
  const parameters = parameterLine(docs, version);
  if (parameters) lines.push(parameters);
  const url = docsUrl(entry);
  if (url) lines.push('', `[${entry.name} on ${new URL(url).host}](${url})`);
  return lines;
}

/** A built-in variable's reference: the module defining it, versions and link. */
export function variableReference(variable: VariableEntry, shownName: string): string[] {
  const what = variable.prefix ? `any \`$${variable.name}*\` name, a built-in prefix variable` : 'a built-in variable';
  const lines = [`${code(`$${shownName}`)}: ${what} of ${code(moduleLabel(variable.module))}`];
  if (variable.since) lines.push('', `Since nginx ${variable.since}${variable.until ? `, removed in ${variable.until}` : ''}.`);
  const url = variableDocsUrl(variable);
  if (url) lines.push('', `[$${variable.name} on ${new URL(url).host}](${url})`);
  return lines;
}
