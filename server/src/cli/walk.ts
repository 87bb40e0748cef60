// Recursive directory listing shared by the directory walk and command-line globs.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

/**
 * Version-control metadata and installed packages: never configuration the user wrote, and often huge.
 * Other dot-directories are walked on purpose: nginx configs do live in `.platform/nginx/` (AWS Elastic Beanstalk),
 * `.docker/`, `.devcontainer/` or `.dokku/`, and ESLint (since flat config) walks dot-directories too.
 */
const SKIPPED_DIRECTORIES = new Set(['.git', '.hg', '.svn', 'node_modules']);

export interface WalkResult {
  /** Absolute paths of regular files (symbolic links followed), in no particular order. */
  files: string[];
  /** Directories that could not be listed, with the reason. */
  failures: Array<{ path: string; error: unknown }>;
}

export interface WalkOptions {
  /** 1 lists only `root`'s own files; undefined means unlimited. */
  maxDepth?: number;
}

export function walkFiles(root: string, options: WalkOptions = {}): WalkResult {
  const result: WalkResult = { files: [], failures: [] };
  // Real paths of the directories entered, so a symbolic link pointing back up cannot loop forever.
  const visited = new Set<string>();
  visit(root, 1);
  return result;

  function visit(directory: string, depth: number): void {
    let entries: Dirent[];
    try {
      const realDirectory = realpathSync(directory);
      if (visited.has(realDirectory)) return;
      visited.add(realDirectory);
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      result.failures.push({ path: directory, error });
      return;
    }
    const mayDescend = options.maxDepth === undefined || depth < options.maxDepth;
    for (const dirent of entries) {
      const entry = path.join(directory, dirent.name);
      const kind = entryKind(dirent, entry);
      if (kind === 'file') result.files.push(entry);
      if (kind === 'directory' && mayDescend && !SKIPPED_DIRECTORIES.has(dirent.name)) visit(entry, depth + 1);
    }
  }
}

/** Follows symbolic links (nginx's sites-enabled/ is usually links into sites-available/); a dangling one is ignored. */
function entryKind(dirent: Dirent, entry: string): 'file' | 'directory' | 'other' {
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
