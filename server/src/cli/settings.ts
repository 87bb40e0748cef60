// The settings of one run: the command line over the project's `.nginx-keepalive.json`.
//
// One settings file per run: --config when given, else the nearest one above the FIRST checked path (a file's
// directory, a directory, or a glob's nearest existing directory), up to the file-system root. The first path rather
// than the working directory, so `nginx-keepalive check /srv/app/nginx` from anywhere uses /srv/app's settings, as
// it would from inside /srv/app. Other paths whose nearest settings file differs get a note saying it is not used.
import path from 'node:path';
import { CONFIG_FILE_NAME, findConfigFile, readConfigFile, type ProjectConfig } from '../core/config-file.js';
import type { AnalyzeOptions, PathMapping } from '../core/types.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckOptions } from './args.js';
import { displayPath } from './paths.js';

export interface RunSettings {
  /** What analyze() gets, except readRoots (discovery's) and the host. */
  analyze: Pick<AnalyzeOptions, 'nginxVersion' | 'rules' | 'pathMap' | 'keepaliveConnections' | 'maxFileBytes'>;
  /** Absolute path of the settings file used, if any. */
  configFile: string | undefined;
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
    notes.push(...unusedConfigNotes(options.patterns, starts, found, cwd));
  }
  return { analyze: merge(options, config), configFile: config?.path, notes };
}

/** The command line wins key by key; a --path-map replaces the settings file's mapping of the same prefix. */
function merge(options: CheckOptions, config: ProjectConfig | undefined): RunSettings['analyze'] {
  const fromCommandLine = new Set(options.pathMap.map((mapping) => mapping.from));
  const pathMap: PathMapping[] = [
    ...options.pathMap,
    ...(config?.pathMap ?? []).filter((mapping) => !fromCommandLine.has(mapping.from)),
  ];
  return {
    nginxVersion: options.nginxVersion ?? config?.nginxVersion,
    rules: { ...config?.rules, ...options.rules },
    pathMap,
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
