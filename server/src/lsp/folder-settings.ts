// The editor's settings per workspace folder. A multi-root workspace can give each folder its own
// nginxKeepalive.* settings (its .vscode/settings.json, or the folder's entry in a .code-workspace file), so they are
// pulled with one workspace/configuration request holding one item per folder (its scopeUri) plus one without a
// scope: the window's settings, which apply to files outside every folder. A client that pushes its settings instead
// (initializationOptions, didChangeConfiguration: Neovim, Helix) gives the same settings to every folder; relative
// pathMap targets still resolve against each folder.
import path from 'node:path';
import { DEFAULT_EDITOR_SETTINGS, readEditorSettings, SETTINGS_SECTION, type EditorSettings } from './editor-settings.js';
import { deepestFolder, uriOfPath } from './paths.js';

export interface ConfigurationSource {
  /** Whether the client answers workspace/configuration. */
  pulls: boolean;
  /** What the client pushed (initializationOptions or the latest didChangeConfiguration), for clients that do not. */
  pushed: unknown;
  /** workspace/configuration: one answer per item, in order. */
  request(items: Array<{ section: string; scopeUri?: string }>): Promise<unknown[]>;
}

export interface FolderSettingsReading {
  window: EditorSettings;
  folders: Map<string, EditorSettings>;
  /** Each problem once, naming the folder whose settings hold it when that is not every folder's. */
  problems: string[];
}

/** The settings of the window and of each folder (absolute paths), read and validated. */
export async function readFolderSettings(
  source: ConfigurationSource,
  folders: readonly string[],
  knownRuleIds: ReadonlySet<string>,
): Promise<FolderSettingsReading> {
  const raws = source.pulls
    ? await source.request([
        { section: SETTINGS_SECTION },
        ...folders.map((folder) => ({ section: SETTINGS_SECTION, scopeUri: uriOfPath(folder) })),
      ])
    : [source.pushed, ...folders.map(() => source.pushed)];
  // The window's relative pathMap targets resolve against the first folder, as before folders had their own.
  const window = readEditorSettings(raws[0], folders[0], knownRuleIds);
  const problems = new Set(window.problems);
  const byFolder = new Map<string, EditorSettings>();
  folders.forEach((folder, index) => {
    const reading = readEditorSettings(raws[index + 1], folder, knownRuleIds);
    byFolder.set(folder, reading.settings);
    for (const problem of reading.problems) if (!problems.has(problem)) problems.add(`${problem} (folder ${folder})`);
  });
  return { window: window.settings, folders: byFolder, problems: [...problems] };
}

/** Which settings apply to a file: its folder's (the deepest folder holding it), else the window's. */
export class FolderSettings {
  private window: EditorSettings = DEFAULT_EDITOR_SETTINGS;
  private readonly byFolder = new Map<string, EditorSettings>();
  private folders: string[] = [];

  get windowSettings(): EditorSettings {
    return this.window;
  }

  /** The same settings everywhere (a client that pushes them, or a test). */
  setEverywhere(settings: EditorSettings): void {
    this.set(settings, new Map());
  }

  set(window: EditorSettings, byFolder: ReadonlyMap<string, EditorSettings>): void {
    this.window = window;
    this.byFolder.clear();
    for (const [folder, settings] of byFolder) this.byFolder.set(path.resolve(folder), settings);
    this.folders = [...this.byFolder.keys()];
  }

  /** The folder whose settings apply to `file` (absolute); undefined outside every folder with settings. */
  folderOf(file: string): string | undefined {
    return deepestFolder(file, this.folders);
  }

  for(file: string): EditorSettings {
    const folder = this.folderOf(file);
    return folder === undefined ? this.window : this.byFolder.get(folder)!;
  }

  /** Each folder with its settings. */
  entries(): Array<[string, EditorSettings]> {
    return this.folders.map((folder) => [folder, this.byFolder.get(folder)!]);
  }
}
