// The one settings merge: a project's `.nginx-keepalive.json` with one person's settings (the CLI's flags, or the
// editor's nginxKeepalive.* settings). Both adapters call it, so precedence and the pathMap trust rule cannot drift
// apart; what stays in each adapter is only how a refusal is reported (the CLI exits 2, the server warns and drops).
//
// Key by key, the higher layer wins: the command line over the project's file (whoever runs the check decides), the
// project's file over the editor (the file is shared by everyone working on the project, editor settings are one
// person's). pathMap merges by prefix: a higher layer's mapping replaces the lower layer's mapping of the same prefix.
import path from 'node:path';
import type { PathMapping, SeveritySetting } from '../util/types.js';
import { createReadScope } from '../model/read-scope.js';
import type { ProjectConfig } from './config-file.js';
import { givenContexts, type GivenContextName } from './given-contexts.js';
import { chooseNginxTarget, type DetectedImage, type NginxTarget } from './nginx-target.js';
import type { AnalyzeOptions } from './types.js';

/** One person's settings: the command line's flags, or the editor's settings. */
export interface PersonalSettings {
  nginxVersion?: string;
  nginxBuild?: string;
  keepaliveConnections?: number;
  maxFileBytes?: number;
  rules: Record<string, SeveritySetting>;
  pathMap: PathMapping[];
  /** Where an explicit nginx version came from, for the reports. */
  source: 'flag' | 'editor';
}

/** The project's settings file, as far as the merge uses it. */
export type ProjectSettings = Pick<
  ProjectConfig,
  'path' | 'nginxVersion' | 'nginxBuild' | 'keepaliveConnections' | 'maxFileBytes' | 'rules' | 'pathMap' | 'contexts' | 'extraDirectives'
>;

/** 'personal' for the CLI (flags over the file), 'project' for the language server (the file over the editor). */
export type Precedence = 'personal' | 'project';

export type MergedSettings = Pick<
  AnalyzeOptions,
  'nginxVersion' | 'nginxBuild' | 'keepaliveConnections' | 'rules' | 'pathMap' | 'maxFileBytes' | 'extraDirectives'
>;

export interface SettingsMerge {
  settings: MergedSettings;
  /** The project's own mappings still in force (not replaced by a personal one of the same prefix), before trust. */
  projectPathMap: PathMapping[];
  /** The project's mappings refused by the trust rule (empty when no read roots were given); left out of `settings`. */
  refused: PathMapping[];
}

export interface MergeInputs {
  personal: PersonalSettings;
  project: ProjectSettings | undefined;
  precedence: Precedence;
  /** The checked paths or workspace folders: when given, the project's mappings must map into them. */
  readRoots?: readonly string[];
}

export function mergeSettings(inputs: MergeInputs): SettingsMerge {
  const { personal, project, precedence } = inputs;
  const personalPrefixes = new Set(personal.pathMap.map((mapping) => mapping.from));
  const projectPathMap = (project?.pathMap ?? []).filter(
    (mapping) => precedence === 'project' || !personalPrefixes.has(mapping.from),
  );
  const { kept, refused } =
    inputs.readRoots === undefined ? { kept: projectPathMap, refused: [] } : confinePathMap(projectPathMap, inputs.readRoots);
  const projectLayer = { ...project, rules: project?.rules ?? {}, pathMap: kept };
  const [over, under] = precedence === 'personal' ? [personal, projectLayer] : [projectLayer, personal];
  const overPrefixes = new Set(over.pathMap.map((mapping) => mapping.from));
  const settings: MergedSettings = {
    nginxVersion: over.nginxVersion ?? under.nginxVersion,
    keepaliveConnections: over.keepaliveConnections ?? under.keepaliveConnections,
    rules: { ...under.rules, ...over.rules },
    pathMap: [...over.pathMap, ...under.pathMap.filter((mapping) => !overPrefixes.has(mapping.from))],
  };
  const nginxBuild = over.nginxBuild ?? under.nginxBuild;
  if (nginxBuild !== undefined) settings.nginxBuild = nginxBuild;
  const maxFileBytes = over.maxFileBytes ?? under.maxFileBytes;
  // Only when set: the language server's settings never carry the key (it limits by nginxKeepalive.maxFileSize).
  if (maxFileBytes !== undefined) settings.maxFileBytes = maxFileBytes;
  // Only the project's file names extra directives: they describe the project's nginx build, not one person's taste.
  if (project?.extraDirectives !== undefined) settings.extraDirectives = project.extraDirectives;
  return { settings, projectPathMap, refused };
}

/**
 * The trust rule. The settings file comes with the tree being checked, and a pull request can change it:
 * `{"pathMap": {"/etc": "/etc"}}` beside an `include /etc/passwd;` would otherwise print the machine's files in code
 * frames. So it may only map into the read roots (as written and through links); mapping anywhere else takes a
 * personal setting (--path-map, nginxKeepalive.pathMap), written by whoever runs the check.
 */
export function confinePathMap(
  mappings: readonly PathMapping[],
  readRoots: readonly string[],
): { kept: PathMapping[]; refused: PathMapping[] } {
  if (mappings.length === 0) return { kept: [], refused: [] }; // no scope to build: most projects map nothing
  const scope = createReadScope(readRoots);
  const kept: PathMapping[] = [];
  const refused: PathMapping[] = [];
  for (const mapping of mappings) (scope.allows(mapping.to) ? kept : refused).push(mapping);
  return { kept, refused };
}

/**
 * The nginx version, in the layers' order (a stated version wins over detection), then a Dockerfile or compose file
 * (`detect`, called only when no layer states a version: it reads files), then the default.
 */
export function chooseSettingsTarget(
  personal: Pick<PersonalSettings, 'nginxVersion' | 'source'>,
  project: Pick<ProjectSettings, 'nginxVersion' | 'path'> | undefined,
  precedence: Precedence,
  detect: () => DetectedImage | undefined,
): NginxTarget {
  const explicit = personal.nginxVersion === undefined ? undefined : { version: personal.nginxVersion, source: personal.source };
  const fromProject = project?.nginxVersion === undefined ? undefined : { version: project.nginxVersion, file: project.path };
  if (precedence === 'project' && fromProject) return chooseNginxTarget({ settings: fromProject });
  if (explicit || fromProject) return chooseNginxTarget({ explicit, settings: fromProject });
  return chooseNginxTarget({ detected: detect() });
}

/** The settings file's "contexts" (relative to its directory) for `documents`; a --context flag overrides them. */
export function settingsContexts(
  documents: readonly string[],
  flag: GivenContextName | undefined,
  project: Pick<ProjectSettings, 'path' | 'contexts'> | undefined,
): ReturnType<typeof givenContexts> {
  return givenContexts(documents, flag, project?.contexts ?? [], project === undefined ? undefined : path.dirname(project.path));
}
