// Recursive directory listing shared by the directory walk and command-line globs.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { createReadScope } from '../model/read-scope.js';
import { SKIPPED_DIRECTORIES } from './nginx-files.js';
import { fileNameFromBytes, hasUndecodableName, undecodableNameError } from '../util/paths.js';

/**
 * Version-control metadata, installed packages and virtual environments (nginx-files.ts lists them): never
 * configuration the user wrote, and often huge. ESLint (since flat config) walks other dot-directories too.
 */

export interface WalkResult {
  /** Absolute paths of regular files (symbolic links inside the checked paths followed), in no particular order. */
  files: string[];
  /** Directories that could not be listed, with the reason. */
  failures: Array<{ path: string; error: unknown }>;
  /** Symbolic links leading outside the checked paths: reported, never followed (nor their targets tested). */
  escaped: string[];
  /** Directories not entered because of their name (node_modules, .git...), for --debug; walkFiles always sets it. */
  skippedDirectories?: string[];
}

export interface WalkOptions {
  /** 1 lists only `root`'s own files; undefined means unlimited. */
  maxDepth?: number;
  /**
   * Asked about each symbolic link before it is followed: false when it leads outside the checked paths. Default:
   * the link must lead inside `root` itself. A committed `x -> /etc` must not make the walk read the host's files.
   */
  allows?(link: string): boolean;
}

export function walkFiles(root: string, options: WalkOptions = {}): WalkResult {
  const skippedDirectories: string[] = [];
  const result: WalkResult = { files: [], failures: [], escaped: [], skippedDirectories };
  const allows = options.allows ?? insideOf(root);
  // Real paths of the directories entered, so a symbolic link pointing back up cannot loop forever.
  const visited = new Set<string>();
  // A stack, not recursion: a tree thousands of directories deep must not overflow the call stack.
  const pending: Array<{ directory: string; depth: number }> = [{ directory: root, depth: 1 }];
  while (pending.length > 0) {
    const { directory, depth } = pending.pop()!;
    let entries: Dirent<Buffer>[];
    try {
      const realDirectory = realpathSync(directory);
      if (visited.has(realDirectory)) continue;
      visited.add(realDirectory);
      // Names as bytes: one that is not valid UTF-8 would come back with U+FFFD in it, naming no file at all.
      entries = readdirSync(directory, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      result.failures.push({ path: directory, error });
      continue;
    }
    const mayDescend = options.maxDepth === undefined || depth < options.maxDepth;
    const subdirectories: string[] = [];
    for (const dirent of entries) {
      const name = fileNameFromBytes(dirent.name);
      const entry = path.join(directory, name);
      if (hasUndecodableName(name)) {
        // No string path opens it. A directory is reported here; a file goes on, so that the name rule (or the
        // glob) still decides whether it is a config, and reading it reports it (read-documents.ts).
        if (dirent.isDirectory()) result.failures.push({ path: entry, error: undecodableNameError() });
        else result.files.push(entry);
        continue;
      }
      if (dirent.isSymbolicLink() && !allows(entry)) {
        result.escaped.push(entry);
        continue;
      }
      const kind = entryKind(dirent, entry);
      if (kind === 'file') result.files.push(entry);
      if (kind === 'directory' && mayDescend) {
        if (SKIPPED_DIRECTORIES.has(name)) skippedDirectories.push(entry);
        else subdirectories.push(entry);
      }
    }
    // Reversed onto the stack, so directories are entered in the order a recursive walk would enter them: which of
    // two paths to one directory is walked (the other is a loop or an alias) stays the one listed first.
    for (let i = subdirectories.length - 1; i >= 0; i--) pending.push({ directory: subdirectories[i]!, depth: depth + 1 });
  }
  return result;
}

function insideOf(root: string): (link: string) => boolean {
  const scope = createReadScope([root]);
  return (link) => scope.allows(link);
}

/** Follows symbolic links (nginx's sites-enabled/ is usually links into sites-available/); a dangling one is ignored. */
function entryKind(dirent: Dirent<Buffer>, entry: string): 'file' | 'directory' | 'other' {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'directory';
  if (!dirent.isSymbolicLink()) return 'other';
  try {
    const stats = statSync(entry);
    if (stats.isFile()) return 'file';
    if (stats.isDirectory()) return 'directory';
  } catch {
    // Dangling link or a race with a deletion: not a file we could check.
  }
  return 'other';
}
