// Files changing on disk, as workspace/didChangeWatchedFiles reports them: the index, the model cache and the
// analyses of the documents that read those files follow.
import path from 'node:path';
import { FileChangeType, type FileEvent, type FileSystemWatcher } from './protocol.js';
import { CONFIG_FILE_NAME } from '../engine/config-file.js';
import type { AnalysisService } from './analysis-service.js';
import type { OpenDocuments } from './documents.js';
import type { SettingsStore } from './settings-store.js';
import { isFileUri, pathOfUri } from './paths.js';
import type { WorkspaceIndex } from './workspace-index.js';
import { isContainerFileName } from '../engine/version-detect.js';
import { isDirectory } from '../util/stat.js';

/**
 * What the client is asked to watch: nginx configs, Dokku templates, sites-* directories and settings files, and the
 * Dockerfiles and compose files the nginx version is detected from (engine/version-detect.ts).
 */
export const WATCHED_GLOBS = [
  '**/*.conf',
  '**/*.sigil',
  '**/nginx.tmpl',
  '**/sites-*/**',
  `**/${CONFIG_FILE_NAME}`,
  '**/{Dockerfile,Dockerfile.*,*.Dockerfile,Containerfile}',
  '**/{docker-compose,compose}*.{yml,yaml}',
];

export const watchers = (): FileSystemWatcher[] => WATCHED_GLOBS.map((globPattern) => ({ globPattern }));

/**
 * A directory created (it is one now) or deleted (a detected image came from a file below it): it may hold a
 * Dockerfile or compose file the event does not name. Any other event leaves the detected nginx version alone.
 */
function mayHoldContainerFiles(event: FileEvent, file: string, settings: SettingsStore): boolean {
  if (event.type === FileChangeType.Created) return isDirectory(file);
  return event.type === FileChangeType.Deleted && settings.detectedUnder(file);
}

/** True when a settings file, Dockerfile or compose file changed: the effective settings may differ. */
export function applyFileEvents(
  events: readonly FileEvent[],
  context: { index: WorkspaceIndex; documents: OpenDocuments; analyses: AnalysisService; settings: SettingsStore },
): boolean {
  const { index, documents, analyses, settings } = context;
  let settingsChanged = false;
  let structural = false;
  const changed: string[] = [];
  for (const event of events) {
    if (!isFileUri(event.uri)) continue;
    const file = pathOfUri(event.uri);
    // A Dockerfile or compose file may change the nginx version every analysis assumes, as a settings file may; so
    // may a directory holding one, created or deleted whole (a client may report only the directory).
    if (path.basename(file) === CONFIG_FILE_NAME || isContainerFileName(path.basename(file))) {
      settingsChanged = true;
      continue;
    }
    if (mayHoldContainerFiles(event, file, settings)) settingsChanged = true;
    if (event.type === FileChangeType.Deleted) {
      index.remove(file);
      structural = true;
      changed.push(file);
    } else if (event.type === FileChangeType.Created) {
      index.update(file);
      structural = true;
      changed.push(file);
    } else if (!documents.atPath(file)) {
      // A save of an open document changes nothing: it is analyzed with its editor text already.
      index.update(file);
      changed.push(file);
    }
  }
  if (settingsChanged) analyses.everythingChanged();
  else if (changed.length > 0) analyses.filesChanged(changed, structural);
  return settingsChanged;
}
