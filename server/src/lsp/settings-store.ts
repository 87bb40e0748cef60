// The settings an analysis runs with: the editor's settings, overridden key by key by the nearest
// `.nginx-keepalive.json` above the file being analyzed (the project's file is shared by everyone who works on it,
// editor settings are one person's). A settings file that is invalid is reported once and ignored.
import { statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, findConfigFile, readConfigFile, type ProjectConfig } from '../engine/config-file.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { PathMapping } from '../util/types.js';
import type { DetectedImage, NginxTarget } from '../engine/nginx-target.js';
import { chooseSettingsTarget, mergeSettings, settingsContexts } from '../engine/settings-merge.js';
import { detectNginxImage } from '../engine/version-detect.js';
import { createReadScope } from '../model/read-scope.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { EditorSettings, SettingsReading } from './editor-settings.js';
import { FolderSettings } from './folder-settings.js';

export type RuleSettings = Pick<
  AnalyzeOptions,
  'nginxVersion' | 'keepaliveConnections' | 'rules' | 'pathMap' | 'nginxTarget' | 'contexts'
>;

interface CachedConfig {
  /** What the file was read at: re-read when either differs, so an edit is seen even without file watching. */
  stamp: string;
  config: ProjectConfig | undefined;
}

export const knownRuleIds = (): ReadonlySet<string> => new Set(registeredRules.map((rule) => rule.meta.id));

function stampOf(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return 'missing';
  }
}

/**
 * The editor's settings under the project's file, the file's mappings confined to `readRoots`
 * (engine/settings-merge.ts). The server limits documents by nginxKeepalive.maxFileSize (their text is in memory), so
 * the file's "maxFileSize" is not passed on.
 */
function mergeWithEditor(editor: EditorSettings, project: ProjectConfig | undefined, readRoots: readonly string[]) {
  const { nginxVersion, nginxBuild, keepaliveConnections, rules, pathMap } = editor;
  const personal = { nginxVersion, ...(nginxBuild === undefined ? {} : { nginxBuild }), keepaliveConnections, rules, pathMap, source: 'editor' as const };
  const projectSettings = project && { ...project, maxFileBytes: undefined };
  return mergeSettings({ personal, project: projectSettings, precedence: 'project', readRoots });
}

export class SettingsStore {
  /** The editor's settings per workspace folder (lsp/folder-settings.ts). */
  readonly editorSettings = new FolderSettings();
  private readonly configs = new Map<string, CachedConfig>();
  /** Refused mappings already reported: file, prefix and target. */
  private readonly refusals = new Set<string>();
  /** The nginx image detected per workspace folder (or per directory outside them), until the disk changes. */
  private readonly detections = new Map<string, DetectedImage | undefined>();
  private folders: readonly string[] = [];

  constructor(private readonly warn: (message: string) => void) {}

  /** The window's settings (those of files outside every workspace folder). */
  get editor(): EditorSettings {
    return this.editorSettings.windowSettings;
  }

  /** The editor settings that apply to `file` (absolute): its workspace folder's. */
  editorFor(file: string): EditorSettings {
    return this.editorSettings.for(file);
  }

  /** The same settings for every folder. */
  setEditorSettings(reading: SettingsReading): void {
    this.setFolderSettings(reading.settings, new Map(), reading.problems);
  }

  setFolderSettings(window: EditorSettings, byFolder: ReadonlyMap<string, EditorSettings>, problems: readonly string[]): void {
    this.editorSettings.set(window, byFolder);
    if (problems.length > 0) {
      this.warn(`nginx-keepalive: invalid settings ignored (their defaults apply): ${problems.join('; ')}`);
    }
  }

  /**
   * The settings for analysing `file` (absolute) as a root, reading within `readRoots` (the workspace folders; by
   * default the file's directory).
   */
  settingsFor(file: string, readRoots?: readonly string[]): RuleSettings {
    // Looked up once per analysis: the lookup stats every directory up to the root, at every keystroke.
    const project = this.projectConfigFor(path.dirname(file));
    const settings = this.settingsWith(project, path.dirname(file), readRoots, file);
    // The settings file's "contexts" for the root analyzed (a file's own comment still wins, in the model).
    if (project && project.contexts.length > 0) settings.contexts = settingsContexts([file], undefined, project);
    return settings;
  }

  /**
   * The settings of a workspace folder analyzed whole, as `check .` run in it reads them: the settings file nearest the
   * folder, its "contexts" for each of `documents` (absolute paths).
   */
  settingsForFolder(folder: string, readRoots: readonly string[], documents: readonly string[]): RuleSettings {
    const project = this.projectConfigFor(folder);
    const settings = this.settingsWith(project, folder, readRoots);
    if (project && project.contexts.length > 0) settings.contexts = settingsContexts(documents, undefined, project);
    return settings;
  }

  /** The settings of files in `directory` (a workspace folder's own for the folder's files). */
  settingsForDirectory(directory: string, readRoots?: readonly string[], file?: string): RuleSettings {
    return this.settingsWith(this.projectConfigFor(directory), directory, readRoots, file);
  }

  /** settingsForDirectory with the directory's settings file already looked up. */
  private settingsWith(project: ProjectConfig | undefined, directory: string, readRoots: readonly string[] = [directory], file?: string): RuleSettings {
    const merge = mergeWithEditor(this.editorFor(file ?? directory), project, readRoots);
    if (project) this.reportRefused(project.path, merge.refused);
    const merged: RuleSettings = merge.settings;
    const nginxTarget = this.targetFor(project, directory, file);
    return { ...merged, nginxVersion: nginxTarget.version, nginxTarget };
  }

  /** A Dockerfile, compose file or settings file changed, or folders or settings did: they are looked at again. */
  forgetDetections(): void {
    this.detections.clear();
  }

  /** Whether a detected image was read from a file at or below `directory` (deleting it changes the detection). */
  detectedUnder(directory: string): boolean {
    for (const detected of this.detections.values()) if (detected && isWithin(detected.file, directory)) return true;
    return false;
  }

  /**
   * As the CLI decides, with the editor's setting in the flag's place but below the project's file (as for every
   * other key here): the project's "nginxVersion", nginxKeepalive.nginxVersion, a Dockerfile or compose file of the
   * workspace folder (engine/version-detect.ts), the default.
   */
  private targetFor(project: ProjectConfig | undefined, directory: string, file?: string): NginxTarget {
    const personal = { nginxVersion: this.editorFor(file ?? directory).nginxVersion, source: 'editor' as const };
    return chooseSettingsTarget(personal, project, 'project', () => this.detect(directory, file));
  }

  /** The workspace folders: each is searched for Dockerfiles and compose files once, until the disk changes. */
  setWorkspaceFolders(folders: readonly string[]): void {
    this.folders = folders.map((folder) => path.resolve(folder));
    this.detections.clear();
  }

  /**
   * Per workspace folder: searched through, then the directories above it up to the repository root. A file outside
   * every folder: only its own directory and those above it up to the repository root (a file opened from the home
   * directory must not make the server walk the home directory).
   */
  private detect(directory: string, file?: string): DetectedImage | undefined {
    const folder = this.folders.find((candidate) => isWithin(directory, candidate));
    const key = folder ?? `outside:${directory}`;
    if (this.detections.has(key)) return this.detections.get(key);
    const scope = createReadScope(this.folders);
    const detected =
      folder !== undefined
        ? detectNginxImage({ directories: [folder], first: folder, allows: (link) => scope.allows(link) })
        : detectNginxImage({ directories: [], first: file ?? directory, allows: () => false });
    this.detections.set(key, detected);
    return detected;
  }

  /**
   * The project's mappings that lead outside `readRoots` (dropped by the merge), each reported once. As in the CLI: a
   * `.nginx-keepalive.json` comes with the workspace (a cloned repository can hold anything), so it may only map into
   * it; mapping elsewhere takes the editor's own nginxKeepalive.pathMap setting, which the user wrote.
   */
  private reportRefused(file: string, refused: readonly PathMapping[]): void {
    for (const mapping of refused) {
      const key = `${file}\0${mapping.from}\0${mapping.to}`;
      if (this.refusals.has(key)) continue;
      this.refusals.add(key);
      this.warn(
        `nginx-keepalive: ${file}: "pathMap.${mapping.from}": ${mapping.to} is outside the workspace folders, ` +
          'and a workspace settings file may only map into them (the mapping is ignored; map it in the ' +
          'nginxKeepalive.pathMap setting instead)',
      );
    }
  }

  private projectConfigFor(directory: string): ProjectConfig | undefined {
    const file = findConfigFile(directory);
    if (file === undefined) return undefined;
    const stamp = stampOf(file);
    const cached = this.configs.get(file);
    if (cached?.stamp === stamp) return cached.config;
    let config: ProjectConfig | undefined;
    try {
      config = readConfigFile(file, knownRuleIds());
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.warn(`nginx-keepalive: ${error.file}: ${error.detail} (the file is ignored until it is fixed)`);
    }
    this.configs.set(file, { stamp, config });
    return config;
  }
}

function isWithin(file: string, directory: string): boolean {
  const relative = path.relative(directory, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
