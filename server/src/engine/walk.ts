// The one directory walker: the CLI's directory arguments and globs, container-file detection, and the language
// server's workspace index all list files through it, so the skip list and the symbolic-link rule cannot drift apart.
//
// The link rule: a link is followed only when the read scope allows it (model/read-scope.ts: its real path stays
// inside the checked paths or workspace folders); otherwise it is reported as escaped and its target is never even
// stat()ed. Only regular files are returned, and their type comes from the directory listing or a stat(), so a FIFO
// or a device is never opened (a read would block). Nothing is read here; `accept` may read a file it is handed,
// which is then known to be a regular file.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { createReadScope } from '../model/read-scope.js';
import { SKIPPED_DIRECTORIES } from './nginx-files.js';
import { fileNameFromBytes, hasUndecodableName, undecodableNameError } from '../util/paths.js';
import { nativeRealPath } from './checked-files.js';

export interface WalkResult {
  /** Absolute paths of regular files (symbolic links inside the checked paths followed), in no particular order. */
  files: string[];
  /** Directories that could not be listed, with the reason. */
  failures: Array<{ path: string; error: unknown }>;
  /** Symbolic links leading outside the checked paths: reported, never followed (nor their targets tested). */
  escaped: string[];
  /** Directories not entered because of their name (node_modules, .git...), for --debug; walkFiles always sets it. */
  skippedDirectories?: string[];
  /** Entries neither a regular file nor a directory (a FIFO, a socket, a device, a dangling link), for --debug. */
  skippedOthers?: Array<{ path: string; what: string }>;
  /** True when a limit (maxFiles, maxDirectories) stopped the walk: `files` then holds those found first. */
  truncated?: boolean;
  /**
   * With `realPaths`: the real path of each of `files` listed as a regular file (not a link), found from its
   * directory's real path (one realpath per directory rather than one per file). The others are absent.
   */
  realPaths?: Map<string, string>;
}

export interface WalkOptions {
  /** 1 lists only the roots' own files; undefined means unlimited. */
  maxDepth?: number;
  /**
   * Asked about each symbolic link before it is followed: false when it leads outside the checked paths. Default:
   * the link must lead inside the roots themselves. A committed `x -> /etc` must not make the walk read the host's files.
   */
  allows?(link: string): boolean;
  /** Keeps only the regular files it accepts (it may read them: they are known to be regular files). */
  accept?(file: string): boolean;
  /**
   * Breadth first (the language server): when a limit cuts the walk short, the files kept are the shallow ones,
   * where configs live. Default depth first, in the order a recursive walk would enter directories.
   */
  breadthFirst?: boolean;
  /** Files kept at most; reaching it stops the walk before the next directory (truncated). */
  maxFiles?: number;
  /** Directories listed at most (truncated when more remain). */
  maxDirectories?: number;
  /** Escaped links remembered at most (to name them in a log line, not to list thousands). */
  maxEscaped?: number;
  /** Fill WalkResult.realPaths. */
  realPaths?: boolean;
}

/** What a directory entry or an lstat() tells without opening the file. */
export type EntryTypes = Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink'>;

export function walkFiles(roots: string | readonly string[], options: WalkOptions = {}): WalkResult {
  const rootList = typeof roots === 'string' ? [roots] : roots;
  const skippedDirectories: string[] = [];
  const skippedOthers: Array<{ path: string; what: string }> = [];
  const result: WalkResult = { files: [], failures: [], escaped: [], skippedDirectories, skippedOthers };
  const realPaths = options.realPaths ? new Map<string, string>() : undefined;
  if (realPaths) result.realPaths = realPaths;
  const allows = options.allows ?? insideOf(rootList);
  const maxFiles = options.maxFiles ?? Infinity;
  const maxEscaped = options.maxEscaped ?? Infinity;
  let directoriesLeft = options.maxDirectories ?? Infinity;
  // Real paths of the directories entered, so a symbolic link pointing back up cannot loop forever.
  const visited = new Set<string>();
  // A stack or a queue, not recursion: a tree thousands of directories deep must not overflow the call stack.
  const pending = rootList.map((directory) => ({ directory, depth: 1 }));
  let head = 0; // the queue's front (breadth first); shift() would make a wide tree quadratic
  while (head < pending.length) {
    if (directoriesLeft-- === 0 || result.files.length >= maxFiles) {
      result.truncated = true;
      break;
    }
    const { directory, depth } = options.breadthFirst ? pending[head++]! : pending.pop()!;
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
    const keep = (file: string): boolean => {
      if (result.files.length >= maxFiles || (options.accept !== undefined && !options.accept(file))) return false;
      result.files.push(file);
      return true;
    };
    // What path.join(directory, name) gives for every name a listing holds (no separator, never `.` or `..`),
    // without normalizing the directory again for each of its entries.
    const prefix = path.join(directory, 'x').slice(0, -1);
    const realPrefix = realPaths && entries.length > 0 ? realPrefixOf(directory) : undefined;
    for (const dirent of entries) {
      const name = fileNameFromBytes(dirent.name);
      const entry = prefix + name;
      if (hasUndecodableName(name)) {
        // No string path opens it. A directory is reported here; a file goes on, so that the name rule (or the
        // glob) still decides whether it is a config, and reading it reports it (read-documents.ts).
        if (dirent.isDirectory()) result.failures.push({ path: entry, error: undecodableNameError() });
        else keep(entry);
        continue;
      }
      const kind = entryKind(entry, dirent, allows);
      if (kind === 'escaped') {
        if (result.escaped.length < maxEscaped) result.escaped.push(entry);
      } else if (kind === 'file') {
        if (keep(entry) && realPrefix !== undefined && dirent.isFile()) realPaths!.set(entry, realPrefix + name);
      } else if (kind === 'directory' && mayDescend) {
        if (SKIPPED_DIRECTORIES.has(name)) skippedDirectories.push(entry);
        else subdirectories.push(entry);
      } else if (kind === 'other') {
        skippedOthers.push({ path: entry, what: otherKind(dirent) });
      }
    }
    if (options.breadthFirst) {
      for (const subdirectory of subdirectories) pending.push({ directory: subdirectory, depth: depth + 1 });
    } else {
      // Reversed onto the stack, so directories are entered in the order a recursive walk would enter them: which
      // of two paths to one directory is walked (the other is a loop or an alias) stays the one listed first.
      for (let i = subdirectories.length - 1; i >= 0; i--) pending.push({ directory: subdirectories[i]!, depth: depth + 1 });
    }
  }
  return result;
}

/** What path.join(realpath(directory), name) gives, by the native realpath as checked-files.ts resolves files. */
function realPrefixOf(directory: string): string | undefined {
  const real = nativeRealPath(directory);
  return real === undefined ? undefined : path.join(real, 'x').slice(0, -1);
}

/** What an entry that is neither a file nor a directory is (never opened: reading a FIFO would block). */
function otherKind(types: Pick<Dirent, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>): string {
  if (types.isFIFO()) return 'a FIFO (named pipe)';
  if (types.isSocket()) return 'a socket';
  if (types.isCharacterDevice() || types.isBlockDevice()) return 'a device';
  if (types.isSymbolicLink()) return 'a symbolic link to no regular file or directory';
  return 'not a regular file';
}

function insideOf(roots: readonly string[]): (link: string) => boolean {
  const scope = createReadScope(roots);
  return (link) => scope.allows(link);
}

/**
 * The walk's rule for one entry, also used for a single file the language server is told about: a link is asked
 * about (`allows`) before anything is learnt of its target, then stat()ed; a dangling one is 'other'. Links are
 * followed because nginx's sites-enabled/ is usually links into sites-available/.
 */
export function entryKind(entry: string, types: EntryTypes, allows: (link: string) => boolean): 'file' | 'directory' | 'escaped' | 'other' {
  if (types.isFile()) return 'file';
  if (types.isDirectory()) return 'directory';
  if (!types.isSymbolicLink()) return 'other';
  if (!allows(entry)) return 'escaped';
  try {
    const stats = statSync(entry);
    if (stats.isFile()) return 'file';
    if (stats.isDirectory()) return 'directory';
  } catch {
    // Dangling link, a loop, or a race with a deletion: not a file we could check.
  }
  return 'other';
}
