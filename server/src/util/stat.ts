// Yes/no questions about a path that never throw: a path that vanished or cannot be stat()ed is simply not one.
import { lstatSync, statSync } from 'node:fs';

/** A directory, following links. */
export function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/** A regular file, following links. */
export function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** Anything at all, a dangling link included (lstat: the link itself is not followed). */
export function pathExists(candidate: string): boolean {
  try {
    lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}
