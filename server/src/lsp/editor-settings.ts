// The client's settings (section `nginxKeepalive`), validated key by key with the settings file's own rules, so an
// editor accepts exactly what `.nginx-keepalive.json` accepts. An invalid key is dropped (its default applies) and
// reported; the other keys still apply.
import path from 'node:path';
import { ConfigError, parseConfig } from '../engine/config-file.js';
import type { PathMapping, SeveritySetting } from '../util/types.js';
import { DEFAULT_MAX_FILE_SIZE } from './documents.js';

export const SETTINGS_SECTION = 'nginxKeepalive';

export interface EditorSettings {
  nginxVersion?: string;
  nginxBuild?: string;
  keepaliveConnections?: number;
  rules: Record<string, SeveritySetting>;
  pathMap: PathMapping[];
  /** Documents longer than this (in UTF-16 code units, about bytes for ASCII) are not parsed. */
  maxFileSize: number;
  /** Which files get diagnostics: the open ones, or every nginx file of the workspace folder (lsp/workspace-diagnostics.ts). */
  diagnostics: DiagnosticsScope;
  /** The lens above each upstream{} (features/code-lens.ts): `nginxKeepalive.codeLens.enabled`. */
  codeLens: boolean;
}

export const DIAGNOSTICS_SCOPES = ['workspace', 'openFiles'] as const;
export type DiagnosticsScope = (typeof DIAGNOSTICS_SCOPES)[number];
/**
 * "workspace" checks every nginx file of a folder only while the folders set to it hold at most this many nginx files
 * of at most this many bytes together; beyond, only open files are checked (and the output says so), so opening a
 * fleet's config repository does not keep a core busy.
 */
export const WORKSPACE_DIAGNOSTICS_MAX_FILES = 500;
export const WORKSPACE_DIAGNOSTICS_MAX_BYTES = 20 * 1024 * 1024;

export interface SettingsReading {
  settings: EditorSettings;
  /** One line per key that was ignored. */
  problems: string[];
}

export const DEFAULT_EDITOR_SETTINGS: EditorSettings = {
  rules: {},
  pathMap: [],
  maxFileSize: DEFAULT_MAX_FILE_SIZE,
  diagnostics: 'workspace',
  codeLens: true,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The settings file's pathMap is an object (prefix -> directory); the CLI's --path-map is FROM=TO. Editors get both:
 * an object, or an array of "FROM=TO" strings or {from, to} objects.
 */
function pathMapObject(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const entries: Array<[string, unknown]> = [];
  for (const item of value) {
    if (typeof item === 'string' && item.indexOf('=') > 0) {
      entries.push([item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]);
    } else if (isObject(item) && typeof item.from === 'string') {
      entries.push([item.from, item.to]);
    } else {
      return item; // not a mapping: the validator names it
    }
  }
  return Object.fromEntries(entries);
}


/**
 * Reads `raw` (whatever the client sent). Relative pathMap targets are resolved against `baseDirectory` (the
 * workspace folder the settings are for); without one they are reported and dropped.
 */
export function readEditorSettings(raw: unknown, baseDirectory: string | undefined, knownRuleIds: ReadonlySet<string>): SettingsReading {
  const settings: EditorSettings = { ...DEFAULT_EDITOR_SETTINGS, rules: {}, pathMap: [] };
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { settings, problems };
  if (!isObject(raw)) return { settings, problems: [`expected an object of settings, got ${JSON.stringify(raw)}`] };
  // The settings file's validator resolves relative targets against the file's directory: stand one in.
  const standIn = path.join(baseDirectory ?? '/', 'editor settings');
  const validate = (key: string, value: unknown): ReturnType<typeof parseConfig> | undefined => {
    try {
      return parseConfig(JSON.stringify({ [key]: value }), standIn, knownRuleIds);
    } catch (error) {
      problems.push(error instanceof ConfigError ? error.detail : `"${key}": ${String(error)}`);
      return undefined;
    }
  };
  if (raw.nginxVersion !== undefined && raw.nginxVersion !== null && raw.nginxVersion !== '') {
    settings.nginxVersion = validate('nginxVersion', raw.nginxVersion)?.nginxVersion;
  }
  if (raw.nginxBuild !== undefined && raw.nginxBuild !== null && raw.nginxBuild !== '') {
    settings.nginxBuild = validate('nginxBuild', raw.nginxBuild)?.nginxBuild;
  }
  if (raw.keepaliveConnections !== undefined && raw.keepaliveConnections !== null) {
    settings.keepaliveConnections = validate('keepaliveConnections', raw.keepaliveConnections)?.keepaliveConnections;
  }
  if (raw.rules !== undefined && raw.rules !== null) settings.rules = validate('rules', raw.rules)?.rules ?? {};
  if (raw.pathMap !== undefined && raw.pathMap !== null) {
    const relative = isObject(pathMapObject(raw.pathMap)) && baseDirectory === undefined &&
      Object.values(pathMapObject(raw.pathMap) as object).some((to) => typeof to === 'string' && !path.isAbsolute(to));
    if (relative) problems.push('"pathMap": relative targets need a workspace folder to be resolved against');
    else settings.pathMap = validate('pathMap', pathMapObject(raw.pathMap))?.pathMap ?? [];
  }
  if (raw.maxFileSize !== undefined && raw.maxFileSize !== null) {
    // The same forms as the settings file and --max-file-size (20971520, "20M", "512K").
    settings.maxFileSize = validate('maxFileSize', raw.maxFileSize)?.maxFileBytes ?? DEFAULT_MAX_FILE_SIZE;
  }
  // An editor-only key (the settings file and the CLI have no open files): checked here, not by the file's validator.
  if (raw.diagnostics !== undefined && raw.diagnostics !== null && raw.diagnostics !== '') {
    if ((DIAGNOSTICS_SCOPES as readonly unknown[]).includes(raw.diagnostics)) settings.diagnostics = raw.diagnostics as DiagnosticsScope;
    else problems.push(`"diagnostics": expected one of ${DIAGNOSTICS_SCOPES.map((scope) => `"${scope}"`).join(', ')}, got ${JSON.stringify(raw.diagnostics)}`);
  }
  // Editor-only too; VS Code sends the dotted key nested (`codeLens: { enabled }`), other clients may send it flat.
  const codeLens = isObject(raw.codeLens) ? raw.codeLens.enabled : raw['codeLens.enabled'];
  if (typeof codeLens === 'boolean') settings.codeLens = codeLens;
  else if (codeLens !== undefined && codeLens !== null) problems.push(`"codeLens.enabled": expected true or false, got ${JSON.stringify(codeLens)}`);
  return { settings, problems };
}
