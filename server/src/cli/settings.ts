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
import { confinePathMap, mergeSettings } from '../engine/settings-merge.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckOptions } from './args.js';
import { displayPath } from '../util/paths.js';

export interface RunSettings {
  /** What analyze() gets, except readRoots (discovery's) and the host. */
  analyze: Pick<AnalyzeOptions, 'nginxVersion' | 'nginxBuild' | 'rules' | 'pathMap' | 'keepaliveConnections' | 'maxFileBytes' | 'extraDirectives'>;
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
  // The command line wins key by key, a --path-map replacing the settings file's mapping of the same prefix
  // (engine/settings-merge.ts). The trust rule waits for the read roots, which discovery finds: mappingsOutsideRoots.
  const merged = mergeSettings({
    personal: {
      nginxVersion: options.nginxVersion,
      ...(options.nginxBuild === undefined ? {} : { nginxBuild: options.nginxBuild }),
      keepaliveConnections: options.keepaliveConnections,
      maxFileBytes: options.maxFileBytes,
      rules: options.rules,
      pathMap: options.pathMap,
      source: 'flag',
    },
    project: config,
    precedence: 'personal',
  });
  return {
    analyze: merged.settings,
    configFile: config?.path,
    configPathMap: merged.projectPathMap,
    configNginxVersion: config?.nginxVersion,
    contextGlobs: config?.contexts ?? [],
    notes,
  };
}

/**
 * The settings file's mappings whose target lies outside the checked paths (engine/settings-merge.ts's trust rule):
 * the CLI refuses the run (exit 2), naming them; mapping there takes --path-map.
 */
export function mappingsOutsideRoots(settings: RunSettings, readRoots: readonly string[]): PathMapping[] {
  return confinePathMap(settings.configPathMap, readRoots).refused;
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
