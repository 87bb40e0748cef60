// The directive table (model/directive-table.ts) as Markdown: what a directive does, where nginx allows it, its
// default, module and versions, and the nginx.org link; and the same for built-in variables. Hover and the
// completion items' documentation both show these, so the two never say different things.
//
//   targetVersion(options)                    the version entries are shown for (undefined: before 1.29.7)
//   pickEntry(name, context, version)         the entry nginx would use for `name` in `context`
//   directiveReference(entry, version)        Markdown lines
//   variableReference(variable)               Markdown lines for a built-in `$variable`
import {
  directiveEntries,
  docsUrl,
  entryAtVersion,
  existsInVersion,
  moduleInfo,
  variableDocsUrl,
  type DirectiveContext,
  type DirectiveEntry,
  type VariableEntry,
} from '../model/directive-table.js';
import { formatVersion, MODERN_KEEPALIVE_VERSION, type NginxVersion } from '../analysis/versions.js';
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

function versionLine(entry: DirectiveEntry, version: NginxVersion): string | undefined {
  const parts: string[] = [];
  if (entry.since) parts.push(`since nginx ${entry.since}`);
  if (entry.until) parts.push(`removed in nginx ${entry.until}`);
  if (entry.deprecated) parts.push(`deprecated: use ${code(entry.deprecated)}`);
  if (parts.length === 0) return undefined;
  const missing = existsInVersion(entry, version) ? '' : ` (**not in nginx ${formatVersion(version)}**)`;
  return `Versions: ${parts.join(' · ')}${missing}`;
}

/** A directive's reference: headline, description, arguments, default, contexts, versions and link. */
export function directiveReference(entry: DirectiveEntry, version: NginxVersion): string[] {
  const lines = [`**${entry.name}** · ${code(moduleLabel(entry.module))}`, ''];
  if (entry.description) lines.push(entry.description, '');
  lines.push(`- Arguments: ${argumentsLabel(entry)}${entry.block ? ', then a `{ }` block' : ''}`);
  if (entry.default !== undefined) lines.push(`- Default: ${code(`${entry.name} ${entry.default};`)}`);
  lines.push(`- Context: ${contextsLabel(entry)}`);
  const versions = versionLine(entry, version);
  if (versions) lines.push(`- ${versions}`);
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
