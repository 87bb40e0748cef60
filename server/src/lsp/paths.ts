// Document URIs and file system paths. The core speaks absolute paths; the protocol speaks URIs. Documents that are
// not files (an unsaved "untitled:" buffer) get a path in a directory that does not exist, so they can be analyzed
// alone but never read their neighbours.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isUnder } from '../model/read-scope.js';

const VIRTUAL_DIRECTORY = '/nonexistent-nginx-keepalive-documents';

/** The absolute path a document URI is analyzed under. */
export function pathOfUri(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return path.resolve(fileURLToPath(uri));
    } catch {
      // A malformed file URI (e.g. with a host on POSIX) is still a document: analyze it under a virtual path.
    }
  }
  return hierarchicalPath(uri) ?? path.join(VIRTUAL_DIRECTORY, encodeURIComponent(uri));
}

/**
 * A URI with an authority and a path that is not a file's (VS Code for the Web's `vscode-vfs://github/owner/repo/
 * nginx.conf`) keeps its directories under the virtual directory, so that documents of one repository include each
 * other by relative path as files do; undefined for any other URI (`untitled:Untitled-1`).
 */
function hierarchicalPath(uri: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?$/i.exec(uri);
  if (!match || match[1]!.toLowerCase() === 'file') return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(match[3] ?? '/');
  } catch {
    return undefined;
  }
  const base = path.posix.join(VIRTUAL_DIRECTORY, match[1]!.toLowerCase(), encodeURIComponent(match[2]!));
  const joined = path.posix.join(base, decoded);
  // `..` may not climb out of its scheme and authority.
  return joined.startsWith(`${base}/`) ? joined : undefined;
}

export function isFileUri(uri: string): boolean {
  return uri.startsWith('file:') && !pathOfUri(uri).startsWith(`${VIRTUAL_DIRECTORY}/`);
}

/** The URI of a file that is not open (open documents keep the URI their client sent). */
export function uriOfPath(filePath: string): string {
  return pathToFileURL(filePath).href;
}

/** The deepest of `folders` holding `file` (nested folders: the inner one's settings apply); undefined outside all. */
export function deepestFolder(file: string, folders: readonly string[]): string | undefined {
  let deepest: string | undefined;
  for (const folder of folders) {
    if (isUnder(file, folder) && (deepest === undefined || folder.length > deepest.length)) deepest = folder;
  }
  return deepest;
}
