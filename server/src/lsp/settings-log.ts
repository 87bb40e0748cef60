// The effective settings of each workspace folder, one line each in the output, written when they are first known and
// whenever a line changes (editor settings, a `.nginx-keepalive.json`, a Dockerfile naming another nginx): what a user
// reads to learn why one folder reports what another does not.
import { describeNginxTarget } from '../engine/nginx-target.js';
import { DEFAULT_KEEPALIVE_CONNECTIONS } from '../engine/options.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { EditorSettings } from './editor-settings.js';
import type { RuleSettings, SettingsStore } from './settings-store.js';

/** "nginx 1.22 (Dockerfile:1), keepalive 16, rules: upstream-keepalive off, pathMap: /etc/nginx → …, diagnostics: workspace" */
export function describeEffectiveSettings(settings: RuleSettings, editor: EditorSettings): string {
  const target = settings.nginxTarget ? describeNginxTarget(settings.nginxTarget, (file) => file) : 'nginx before 1.29.7 (default)';
  const changedRules = registeredRules.flatMap((rule) => {
    const chosen = settings.rules?.[rule.meta.id];
    return chosen !== undefined && chosen !== rule.meta.defaultSeverity ? [`${rule.meta.id} ${chosen}`] : [];
  });
  const pathMap = (settings.pathMap ?? []).map((mapping) => `${mapping.from} → ${mapping.to}`);
  return [
    target,
    `keepalive ${settings.keepaliveConnections ?? DEFAULT_KEEPALIVE_CONNECTIONS}`,
    `rules: ${changedRules.length > 0 ? changedRules.join(', ') : 'defaults'}`,
    `pathMap: ${pathMap.length > 0 ? pathMap.join(', ') : 'none'}`,
    `diagnostics: ${editor.diagnostics}`,
    `maxFileSize: ${editor.maxFileSize}`,
  ].join(', ');
}

/** Each folder's line. */
export function effectiveSettingsLines(settings: SettingsStore, folders: readonly string[]): Map<string, string> {
  const readRoots = folders.length > 0 ? folders : undefined;
  return new Map(
    folders.map((folder) => [folder, describeEffectiveSettings(settings.settingsForDirectory(folder, readRoots), settings.editorFor(folder))]),
  );
}

/** Remembers the line last written per folder, so only changes are written again. */
export class EffectiveSettingsLog {
  private readonly written = new Map<string, string>();

  constructor(private readonly write: (line: string) => void) {}

  /** `lines`: folder (or "files outside the workspace folders") -> its description. */
  update(lines: ReadonlyMap<string, string>): void {
    for (const [folder, line] of lines) {
      if (this.written.get(folder) === line) continue;
      this.written.set(folder, line);
      this.write(`settings for ${folder}: ${line}`);
    }
    for (const folder of [...this.written.keys()]) if (!lines.has(folder)) this.written.delete(folder);
  }
}
