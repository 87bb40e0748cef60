// The per-run analysis inputs `check` adds to the settings: which nginx the configs run on (and where that came
// from), and the top-level contexts given to snippets checked on their own.
//
// nginx version, first that applies: --nginx-version, the settings file's "nginxVersion", an nginx image named by a
// Dockerfile or compose file of the repository (engine/version-detect.ts), the default (before 1.29.7). Detection only
// runs when neither of the first two is given: it reads files, and a stated version makes it moot.
import path from 'node:path';
import { describeNginxTarget, type NginxTarget } from '../engine/nginx-target.js';
import { chooseSettingsTarget, settingsContexts } from '../engine/settings-merge.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createReadScope } from '../model/read-scope.js';
import type { CheckOptions } from './args.js';
import { displayPath } from '../util/paths.js';
import { isDirectory } from '../util/stat.js';
import type { RunSettings } from './settings.js';
import { detectNginxImage } from '../engine/version-detect.js';
import { distributionBuild } from '../model/distribution-builds.js';
import { UsageError } from './option-values.js';

export interface RunTargetInputs {
  options: CheckOptions;
  settings: RunSettings;
  /** The discovery's read roots: detection walks and follows links only within them. */
  readRoots: readonly string[];
  /** The documents checked (absolute paths). */
  documents: readonly string[];
  /** The container files discovery's directory walks met (cli/discover.ts), so detection need not walk again. */
  containerFiles?: readonly string[];
  cwd: string;
}


export function runTarget(inputs: RunTargetInputs): NginxTarget {
  const { options, settings, readRoots, cwd } = inputs;
  const project = settingsFile(settings);
  // A distribution's build names its release: the version when no flag gives one (a settings file's version is
  // checked against it by analyze()).
  const build = settings.analyze.nginxBuild === undefined ? undefined : distributionBuild(settings.analyze.nginxBuild);
  const nginxVersion = options.nginxVersion ?? (project?.nginxVersion === undefined ? build?.version.join('.') : undefined);
  return chooseSettingsTarget({ nginxVersion, source: 'flag' }, project, 'personal', () => {
    // `check -` names no place; its --stdin-filename (when given) does.
    const stdinName = (options as { stdinFilename?: string }).stdinFilename;
    const patterns = options.patterns.filter((pattern) => pattern !== '-');
    const first = stdinName ?? (patterns[0] === undefined ? undefined : path.resolve(cwd, patterns[0]));
    const directories = patterns.map((pattern) => path.resolve(cwd, pattern)).filter(isDirectory);
    const scope = createReadScope([...readRoots]);
    return detectNginxImage({ directories, first, allows: (link) => scope.allows(link), listed: inputs.containerFiles });
  });
}

/** The settings file's parts the version and the contexts come from, when one is used. */
function settingsFile(settings: RunSettings): { path: string; nginxVersion?: string; contexts: RunSettings['contextGlobs'] } | undefined {
  if (settings.configFile === undefined) return undefined;
  return { path: settings.configFile, contexts: settings.contextGlobs, nginxVersion: settings.configNginxVersion };
}

/** What analyze() gets besides the settings: the version chosen, its origin, and the given contexts. */
export function runAnalyzeOptions(inputs: RunTargetInputs): Pick<AnalyzeOptions, 'nginxVersion' | 'nginxTarget' | 'contexts'> {
  const target = runTarget(inputs);
  const { settings, options, documents } = inputs;
  const build = settings.analyze.nginxBuild === undefined ? undefined : distributionBuild(settings.analyze.nginxBuild);
  const line = (version: string) => version.split('.').slice(0, 2).join('.');
  if (build && target.version !== undefined && line(target.version) !== line(build.version.join('.'))) {
    throw new UsageError(`nginx build "${build.id}" is nginx ${build.version.join('.')}, but the nginx version is ${target.version}`);
  }
  const contexts = settingsContexts(documents, options.context, settingsFile(settings));
  return { nginxVersion: target.version, nginxTarget: target, contexts };
}

/** "nginx 1.30 (Dockerfile:1)", paths shown relative to the working directory as every report shows them. */
export function describeRunTarget(target: NginxTarget | undefined, cwd: string): string | undefined {
  return target === undefined ? undefined : describeNginxTarget(target, (file) => displayPath(file, cwd));
}
