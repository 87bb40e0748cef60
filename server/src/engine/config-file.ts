// The project settings file, `.nginx-keepalive.json`: found upward from a checked path, validated strictly. A typo in
// a settings file that is silently ignored is a check silently not done, so every unknown key or value is an error
// that names the file and the key. The JSON schema shipped for editors (config-schema.ts) is built from the same
// constants.
import { DISTRIBUTION_BUILDS, distributionBuild } from '../model/distribution-builds.js';
import path from 'node:path';
import { parseByteSize } from '../util/byte-size.js';
import { parseNginxVersion } from './options.js';
import { readRegularFile, type FileRead } from '../util/read-file.js';
import { checkPathMapping } from '../util/path-map.js';
import { isDirectory, isFile } from '../util/stat.js';
import { GIVEN_CONTEXT_NAMES, parseGivenContext, type ContextGlob } from './given-contexts.js';
import type { PathMapping, SeveritySetting } from '../util/types.js';

export const CONFIG_FILE_NAME = '.nginx-keepalive.json';
export const SEVERITY_SETTINGS: readonly SeveritySetting[] = ['off', 'info', 'warning', 'error'];
export const KEEPALIVE_CONNECTIONS_RANGE = { minimum: 1, maximum: 10_000 } as const;
/** What parseNginxVersion accepts: "1", "1.25" or "1.25.3". */
export const NGINX_VERSION_PATTERN = '^\\s*\\d+(\\.\\d+)?(\\.\\d+)?\\s*$';
/** `$schema` lets editors find the schema; it means nothing to the checker. */
const KEYS = ['$schema', 'rules', 'nginxVersion', 'nginxBuild', 'keepaliveConnections', 'pathMap', 'maxFileSize', 'contexts', 'directives'] as const;
/** What a directive name in "directives.extra" may look like: one nginx word, no space, quote, brace or `;`. */
const DIRECTIVE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** The same, for the JSON schema. */
export const DIRECTIVE_NAME_PATTERN = DIRECTIVE_NAME.source;

export interface ProjectConfig {
  /** Absolute path of the file the settings came from. */
  path: string;
  rules: Record<string, SeveritySetting>;
  /** Normalised to X.Y.Z. */
  nginxVersion?: string;
  /** A distribution's build of nginx (model/distribution-builds.ts), e.g. "debian-12". */
  nginxBuild?: string;
  keepaliveConnections?: number;
  /** `to` made absolute against the config file's directory, so the settings mean the same from any working directory. */
  pathMap: PathMapping[];
  /** Bytes: larger files are not checked. */
  maxFileBytes?: number;
  /** Glob (relative to the file's directory) -> top-level context of the snippets it matches, in the file's order. */
  contexts: ContextGlob[];
  /** "directives.extra": third-party directive names the `directive` rule takes as known. */
  extraDirectives?: string[];
}

/** A settings file that cannot be used. `detail` names the key; the caller shows `file` however it shows paths. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'ConfigError';
  }
}



/**
 * The nearest `.nginx-keepalive.json` in the directory of `from` (a file, a directory, or a glob or missing path,
 * whose nearest existing ancestor is used) or any directory above it, up to the file-system root.
 */
export function findConfigFile(from: string): string | undefined {
  let directory = path.resolve(from);
  while (!isDirectory(directory) && path.dirname(directory) !== directory) directory = path.dirname(directory);
  for (;;) {
    const candidate = path.join(directory, CONFIG_FILE_NAME);
    if (isFile(candidate)) return candidate;
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** A settings file is a few hundred bytes; anything near this is not one. */
const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

function unreadableReason(read: Exclude<FileRead, { kind: 'read' }>): string {
  if (read.kind === 'not-regular') return 'not a regular file';
  if (read.kind === 'too-large') return `${read.size} bytes, over the ${MAX_CONFIG_FILE_BYTES} bytes a settings file may have`;
  return (read.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(read.error);
}

/** Reads and validates `file`; throws a ConfigError for anything that is not a valid settings file. */
export function readConfigFile(file: string, knownRuleIds: ReadonlySet<string>): ProjectConfig {
  const absolute = path.resolve(file);
  // Not readFileSync: a settings file named with --config, or one a workspace links to /dev/zero or a FIFO, would
  // never end or block the language server for good.
  const read = readRegularFile(absolute, MAX_CONFIG_FILE_BYTES);
  if (read.kind !== 'read') throw new ConfigError(absolute, `cannot read the settings file: ${unreadableReason(read)}`);
  const text = read.bytes.toString('utf8');
  return parseConfig(text, absolute, knownRuleIds);
}

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: Json): string {
  return JSON.stringify(value) ?? String(value);
}

export function parseConfig(text: string, file: string, knownRuleIds: ReadonlySet<string>): ProjectConfig {
  const fail = (detail: string): never => {
    throw new ConfigError(file, detail);
  };
  let json: Json;
  try {
    // A byte order mark is legal in a UTF-8 file but not in JSON.parse's input.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return fail(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isPlainObject(json)) return fail(`expected a JSON object, got ${describe(json)}`);
  for (const key of Object.keys(json)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      fail(`unknown key "${key}" (expected one of: ${KEYS.filter((k) => k !== '$schema').join(', ')})`);
    }
  }
  const config: ProjectConfig = { path: file, rules: readRules(json.rules, knownRuleIds, fail), pathMap: [], contexts: [] };
  if (json.nginxVersion !== undefined) config.nginxVersion = readNginxVersion(json.nginxVersion, fail);
  if (json.nginxBuild !== undefined) config.nginxBuild = readNginxBuild(json.nginxBuild, fail);
  if (json.keepaliveConnections !== undefined) {
    config.keepaliveConnections = readKeepaliveConnections(json.keepaliveConnections, fail);
  }
  if (json.pathMap !== undefined) config.pathMap = readPathMap(json.pathMap, path.dirname(file), fail);
  if (json.maxFileSize !== undefined) config.maxFileBytes = readMaxFileSize(json.maxFileSize, fail);
  if (json.contexts !== undefined) config.contexts = readContexts(json.contexts, fail);
  if (json.directives !== undefined) config.extraDirectives = readDirectives(json.directives, fail);
  return config;
}

type Fail = (detail: string) => never;

function readRules(value: Json, knownRuleIds: ReadonlySet<string>, fail: Fail): Record<string, SeveritySetting> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) return fail(`"rules" must be an object of rule id -> ${SEVERITY_SETTINGS.join('|')}`);
  const rules: Record<string, SeveritySetting> = {};
  for (const [id, setting] of Object.entries(value)) {
    if (!knownRuleIds.has(id)) fail(`"rules": unknown rule "${id}" (known: ${[...knownRuleIds].join(', ')})`);
    const known = SEVERITY_SETTINGS.find((candidate) => candidate === setting);
    if (!known) fail(`"rules.${id}": expected one of ${SEVERITY_SETTINGS.join(', ')}, got ${describe(setting)}`);
    rules[id] = known!;
  }
  return rules;
}

function readNginxVersion(value: Json, fail: Fail): string {
  const triple = typeof value === 'string' ? parseNginxVersion(value) : undefined;
  if (!triple) return fail(`"nginxVersion": expected a version such as "1.22.1", got ${describe(value)}`);
  return triple.join('.');
}

function readNginxBuild(value: Json, fail: Fail): string {
  const build = typeof value === 'string' ? distributionBuild(value) : undefined;
  const known = DISTRIBUTION_BUILDS.map((candidate) => `"${candidate.id}"`).join(', ');
  if (!build) return fail(`"nginxBuild": expected one of ${known}, got ${describe(value)}`);
  return build.id;
}

function readKeepaliveConnections(value: Json, fail: Fail): number {
  const { minimum, maximum } = KEEPALIVE_CONNECTIONS_RANGE;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum) {
    return fail(`"keepaliveConnections": expected an integer from ${minimum} to ${maximum}, got ${describe(value)}`);
  }
  return value;
}

/** A number of bytes, or a string with a unit as --max-file-size takes it ("20M"). */
function readMaxFileSize(value: Json, fail: Fail): number {
  const text = typeof value === 'string' ? value : Number.isSafeInteger(value) ? String(value) : undefined;
  const parsed = text === undefined ? undefined : parseByteSize(text);
  if (parsed === undefined) {
    return fail(`"maxFileSize": expected a size such as "10M", "512K" or a number of bytes, at most 512M, got ${describe(value)}`);
  }
  return parsed;
}

function readPathMap(value: Json, configDirectory: string, fail: Fail): PathMapping[] {
  if (!isPlainObject(value)) return fail('"pathMap" must be an object of include prefix -> local directory');
  return Object.entries(value).map(([from, to]) => {
    // The check --path-map makes too (path-map.ts).
    const checked = checkPathMapping(from, to, configDirectory);
    if (!checked.ok) return fail(checked.part === 'from' ? `"pathMap": ${checked.problem}` : `"pathMap.${from}": ${checked.problem}`);
    return checked.mapping;
  });
}

function readContexts(value: Json, fail: Fail): ContextGlob[] {
  if (!isPlainObject(value)) return fail(`"contexts" must be an object of glob -> ${GIVEN_CONTEXT_NAMES.join('|')}`);
  return Object.entries(value).map(([pattern, context]) => {
    if (pattern === '') return fail('"contexts": a glob cannot be empty');
    const known = parseGivenContext(context);
    if (!known) return fail(`"contexts.${pattern}": expected one of ${GIVEN_CONTEXT_NAMES.join(', ')}, got ${describe(context)}`);
    return { pattern, context: known };
  });
}

/** `{"extra": ["more_set_headers", ...]}`: names of directives from modules the table does not know. */
function readDirectives(value: Json, fail: Fail): string[] {
  if (!isPlainObject(value)) return fail('"directives" must be an object such as {"extra": ["more_set_headers"]}');
  for (const key of Object.keys(value)) {
    if (key !== 'extra') fail(`"directives": unknown key "${key}" (expected: extra)`);
  }
  const extra = value.extra ?? [];
  if (!Array.isArray(extra)) return fail(`"directives.extra" must be an array of directive names, got ${describe(extra)}`);
  return extra.map((name: Json) => {
    if (typeof name !== 'string' || !DIRECTIVE_NAME.test(name)) {
      return fail(`"directives.extra": expected directive names such as "more_set_headers", got ${describe(name)}`);
    }
    return name;
  });
}
