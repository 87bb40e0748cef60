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
  return path.join(VIRTUAL_DIRECTORY, encodeURIComponent(uri));
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
