// The settings of one run: the command line over the project's `.nginx-keepalive.json`.
//
// One settings file per run: --config when given, else the nearest one above the FIRST checked path (a file's
// directory, a directory, or a glob's nearest existing directory), up to the file-system root. The first path rather
// than the working directory, so `nginx-keepalive check /srv/app/nginx` from anywhere uses /srv/app's settings, as
// it would from inside /srv/app. Other paths whose nearest settings file differs get a note saying it is not used.
import path from 'node:path';
import { CONFIG_FILE_NAME, findConfigFile, readConfigFile, type ProjectConfig } from '../engine/config-file.js';
import type { ContextGlob } from '../engine/given-contexts.js';
import type { PathMapping } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createReadScope } from '../model/read-scope.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckOptions } from './args.js';
import { displayPath } from '../util/paths.js';

export interface RunSettings {
  /** What analyze() gets, except readRoots (discovery's) and the host. */
  analyze: Pick<AnalyzeOptions, 'nginxVersion' | 'rules' | 'pathMap' | 'keepaliveConnections' | 'maxFileBytes'>;
  /** Absolute path of the settings file used, if any. */
  configFile: string | undefined;
  /** The settings file's own mappings still in force (a --path-map of the same prefix replaces one). */
  configPathMap: PathMapping[];
  /** The settings file's "nginxVersion" (whether or not --nginx-version overrides it). */
  configNginxVersion: string | undefined;
  /** The settings file's "contexts", matched relative to its directory (cli/run-target.ts). */
  contextGlobs: ContextGlob[];
  notes: string[];
}

const knownRuleIds = (): ReadonlySet<string> => new Set(registeredRules.map((rule) => rule.meta.id));

/** Throws the settings file's ConfigError when it is invalid: a run with half its settings would mislead. */
export function resolveSettings(options: CheckOptions, cwd: string): RunSettings {
  const notes: string[] = [];
  let config: ProjectConfig | undefined;
  if (options.configPath !== undefined) {
    config = readConfigFile(options.configPath, knownRuleIds());
  } else {
    const starts = options.patterns.map((pattern) => path.resolve(cwd, pattern));
    const found = findConfigFile(starts[0] ?? cwd);
    if (found !== undefined) config = readConfigFile(found, knownRuleIds());
    for (const note of unusedConfigNotes(options.patterns, starts, found, cwd)) notes.push(note);
  }
  // A --path-map replaces the settings file's mapping of the same prefix.
  const fromCommandLine = new Set(options.pathMap.map((mapping) => mapping.from));
  const configPathMap = (config?.pathMap ?? []).filter((mapping) => !fromCommandLine.has(mapping.from));
  return {
    analyze: merge(options, config, configPathMap),
    configFile: config?.path,
    configPathMap,
    configNginxVersion: config?.nginxVersion,
    contextGlobs: config?.contexts ?? [],
    notes,
  };
}

/**
 * The settings file's mappings whose target lies outside the checked paths (as written or through a link). The file
 * comes with the tree being checked, and a pull request can change it: `{"pathMap": {"/etc": "/etc"}}` beside an
 * `include /etc/passwd;` would otherwise print the CI machine's files in code frames. So it may only map into the
 * checked paths; mapping anywhere else takes --path-map, given by whoever runs the check.
 */
export function mappingsOutsideRoots(settings: RunSettings, readRoots: readonly string[]): PathMapping[] {
  const scope = createReadScope(readRoots);
  return settings.configPathMap.filter((mapping) => !scope.allows(mapping.to));
}

/** The command line wins key by key. */
function merge(options: CheckOptions, config: ProjectConfig | undefined, configPathMap: PathMapping[]): RunSettings['analyze'] {
  return {
    nginxVersion: options.nginxVersion ?? config?.nginxVersion,
    rules: { ...config?.rules, ...options.rules },
    pathMap: [...options.pathMap, ...configPathMap],
    keepaliveConnections: options.keepaliveConnections ?? config?.keepaliveConnections,
    maxFileBytes: options.maxFileBytes ?? config?.maxFileBytes,
  };
}

function unusedConfigNotes(patterns: string[], starts: string[], used: string | undefined, cwd: string): string[] {
  const notes: string[] = [];
  const reported = new Set<string>();
  starts.slice(1).forEach((start, index) => {
    const nearest = findConfigFile(start);
    if (nearest === undefined || nearest === used || reported.has(nearest)) return;
    reported.add(nearest);
    const usedText = used === undefined ? `no ${CONFIG_FILE_NAME}` : displayPath(used, cwd);
    notes.push(
      `${patterns[index + 1]}: its nearest ${displayPath(nearest, cwd)} is not used (one settings file per run: ` +
        `${usedText}, found from the first path); check it separately or pass --config`,
    );
  });
  return notes;
}
