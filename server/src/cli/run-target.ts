// The per-run analysis inputs `check` adds to the settings: which nginx the configs run on (and where that came
// from), and the top-level contexts given to snippets checked on their own.
//
// nginx version, first that applies: --nginx-version, the settings file's "nginxVersion", an nginx image named by a
// Dockerfile or compose file of the repository (engine/version-detect.ts), the default (before 1.29.7). Detection only
// runs when neither of the first two is given: it reads files, and a stated version makes it moot.
import { statSync } from 'node:fs';
import path from 'node:path';
import { givenContexts } from '../engine/given-contexts.js';
import { chooseNginxTarget, describeNginxTarget, type NginxTarget } from '../engine/nginx-target.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createReadScope } from '../model/read-scope.js';
import type { CheckOptions } from './args.js';
import { displayPath } from '../util/paths.js';
import type { RunSettings } from './settings.js';
import { detectNginxImage } from '../engine/version-detect.js';

export interface RunTargetInputs {
  options: CheckOptions;
  settings: RunSettings;
  /** The discovery's read roots: detection walks and follows links only within them. */
  readRoots: readonly string[];
  /** The documents checked (absolute paths). */
  documents: readonly string[];
  cwd: string;
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

export function runTarget(inputs: RunTargetInputs): NginxTarget {
  const { options, settings, readRoots, cwd } = inputs;
  const explicit = options.nginxVersion === undefined ? undefined : { version: options.nginxVersion, source: 'flag' as const };
  const fromSettings =
    settings.configNginxVersion === undefined ? undefined : { version: settings.configNginxVersion, file: settings.configFile! };
  if (explicit || fromSettings) return chooseNginxTarget({ explicit, settings: fromSettings });
  // `check -` names no place; its --stdin-filename (when given) does.
  const stdinName = (options as { stdinFilename?: string }).stdinFilename;
  const patterns = options.patterns.filter((pattern) => pattern !== '-');
  const first = stdinName ?? (patterns[0] === undefined ? undefined : path.resolve(cwd, patterns[0]));
  const directories = patterns.map((pattern) => path.resolve(cwd, pattern)).filter(isDirectory);
  const scope = createReadScope([...readRoots]);
  const detected = detectNginxImage({ directories, first, allows: (link) => scope.allows(link) });
  return chooseNginxTarget({ detected });
}

/** What analyze() gets besides the settings: the version chosen, its origin, and the given contexts. */
export function runAnalyzeOptions(inputs: RunTargetInputs): Pick<AnalyzeOptions, 'nginxVersion' | 'nginxTarget' | 'contexts'> {
  const target = runTarget(inputs);
  const { settings, options, documents } = inputs;
  const base = settings.configFile === undefined ? undefined : path.dirname(settings.configFile);
  const contexts = givenContexts(documents, options.context, settings.contextGlobs, base);
  return { nginxVersion: target.version, nginxTarget: target, contexts };
}

/** "nginx 1.30 (Dockerfile:1)", paths shown relative to the working directory as every report shows them. */
export function describeRunTarget(target: NginxTarget | undefined, cwd: string): string | undefined {
  return target === undefined ? undefined : describeNginxTarget(target, (file) => displayPath(file, cwd));
}
