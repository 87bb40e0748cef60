// What the editor's status item shows (client/src/status-item.ts), answered by the server because only it knows:
// the nginx version the active file is checked for and where that came from (a setting, .nginx-keepalive.json, a
// Dockerfile or compose file, the default), and how many files the latest analyses checked.
//
//   nginxKeepalive/status { uri? } -> ServerStatus
import path from 'node:path';
import { DEFAULT_TARGET_LABEL, targetOrigin, type NginxTarget, type NginxTargetSource } from '../engine/nginx-target.js';
import { VERSION } from '../engine/version.js';
import { deepestFolder, pathOfUri } from './paths.js';

export const STATUS_REQUEST = 'nginxKeepalive/status';

export interface StatusParams {
  /** The document the status is for (the active editor's); without one, a file at the top of the first folder. */
  uri?: string;
}

export interface ServerStatus {
  serverVersion: string;
  nginx: {
    /** "1.30", "1.22.1" or "before 1.29.7". */
    label: string;
    source: NginxTargetSource;
    /** Where the version came from, as the hover and the CLI say it: "Dockerfile:1", ".nginx-keepalive.json", "default". */
    origin: string;
  };
  /** The files the latest analyses read and checked: the open documents and what they include. */
  filesChecked: number;
  openDocuments: number;
}

export interface StatusDeps {
  /** The nginx target analyses of `file` run with (as its root would be analyzed). */
  targetFor(file: string): NginxTarget | undefined;
  folders(): readonly string[];
  filesChecked(): number;
  openDocuments(): number;
}

export function serverStatus(params: StatusParams | null | undefined, deps: StatusDeps): ServerStatus {
  const folders = deps.folders();
  const file = typeof params?.uri === 'string' ? pathOfUri(params.uri) : path.join(folders[0] ?? process.cwd(), 'nginx.conf');
  const target: NginxTarget = deps.targetFor(file) ?? { version: undefined, label: DEFAULT_TARGET_LABEL, source: 'default' };
  // Paths relative to the file's workspace folder, as the user sees them in the explorer.
  const base = deepestFolder(file, folders) ?? path.dirname(file);
  const show = (shown: string) => path.relative(base, shown) || path.basename(shown);
  return {
    serverVersion: VERSION,
    nginx: { label: target.label, source: target.source, origin: targetOrigin(target, show) },
    filesChecked: deps.filesChecked(),
    openDocuments: deps.openDocuments(),
  };
}
