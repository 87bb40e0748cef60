// Expands the command line's paths into the list of files to check. A bad path never stops the others.
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { hasGlobMagic } from '../core/glob.js';
import { createReadScope } from '../model/read-scope.js';
import { expandGlob, globRoot } from './expand-glob.js';
import { isNginxFile } from './nginx-files.js';
import { describeFsError, displayPath } from './paths.js';
import { walkFiles, type WalkResult } from './walk.js';

export interface Discovery {
  /** Absolute paths, unique, sorted by code unit (the same on every machine and locale). */
  files: string[];
  /** One line each; any of them makes the exit code 2. */
  errors: string[];
  /** One line each; worth telling, not a failure. */
  notes: string[];
  /**
   * What the user asked to check, as absolute directories (a directory as given, a file's directory, a glob's
   * literal prefix): the only places analyze() may follow includes into, besides --path-map targets.
   */
  readRoots: string[];
}

type Argument =
  | { pattern: string; kind: 'glob' | 'directory' | 'file'; absolute: string; root: string }
  | { pattern: string; kind: 'error'; message: string };

/** What one command-line path is, and the read root it contributes. */
function classify(pattern: string, cwd: string): Argument {
  const absolute = path.resolve(cwd, pattern);
  const stats = statOrError(absolute);
  if (stats instanceof Error && isMissing(stats) && hasGlobMagic(pattern)) {
    return { pattern, kind: 'glob', absolute, root: globRoot(pattern, cwd) };
  }
  if (stats instanceof Error) return { pattern, kind: 'error', message: describeFsError(stats) };
  if (stats.isDirectory()) return { pattern, kind: 'directory', absolute, root: absolute };
  if (stats.isFile()) return { pattern, kind: 'file', absolute, root: path.dirname(absolute) };
  // A FIFO or a device would block the read or never end; nginx configs are regular files.
  return { pattern, kind: 'error', message: 'not a regular file' };
}

export function discoverFiles(patterns: string[], cwd: string): Discovery {
  const found: string[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  const args = patterns.map((pattern) => classify(pattern, cwd));
  const readRoots = new Set(args.flatMap((arg) => (arg.kind === 'error' ? [] : [arg.root])));
  // The walks follow a link only when it leads into one of the read roots, as includes do: a committed `x -> /etc`
  // is reported, and nothing below it is listed or read.
  const scope = createReadScope([...readRoots]);
  const allows = (link: string) => scope.allows(link);
  const escaped = new Set<string>();
  const report = (walked: WalkResult) => {
    for (const failure of walked.failures) {
      errors.push(`${displayPath(failure.path, cwd)}: ${describeFsError(failure.error)}`);
    }
    for (const link of walked.escaped) escaped.add(link);
  };
  // A loop, not found.push(...files): spreading 150,000 arguments overflows the stack.
  const add = (files: readonly string[]) => {
    for (const file of files) found.push(file);
  };

  for (const arg of args) {
    if (arg.kind === 'error') {
      errors.push(`${arg.pattern}: ${arg.message}`);
    } else if (arg.kind === 'glob') {
      const matched = expandGlob(arg.pattern, cwd, { allows });
      report(matched);
      if (matched.files.length === 0 && matched.failures.length === 0) errors.push(`${arg.pattern}: no files match`);
      add(matched.files);
    } else if (arg.kind === 'directory') {
      const walked = walkFiles(arg.absolute, { allows });
      report(walked);
      const nginxFiles = walked.files.filter(isNginxFile);
      if (nginxFiles.length === 0 && walked.failures.length === 0) notes.push(`${arg.pattern}: no nginx files found`);
      add(nginxFiles);
    } else {
      found.push(arg.absolute);
    }
  }
  for (const link of [...escaped].sort(compareCodeUnits)) {
    notes.push(`${displayPath(link, cwd)}: a symbolic link leading outside the checked paths, not followed`);
  }
  return { files: uniqueByRealPath(found).sort(compareCodeUnits), errors, notes, readRoots: [...readRoots].sort() };
}

function statOrError(absolute: string): Stats | Error {
  try {
    return statSync(absolute);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function isMissing(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The same file reached twice (named twice, or sites-enabled/x linking to sites-available/x) would report every
 * finding twice. Keeps the path that sorts first, so the choice does not depend on argument order.
 */
function uniqueByRealPath(files: string[]): string[] {
  const byRealPath = new Map<string, string>();
  for (const file of files) {
    const real = realPathOrSelf(file);
    const kept = byRealPath.get(real);
    if (kept === undefined || compareCodeUnits(file, kept) < 0) byRealPath.set(real, file);
  }
  return [...byRealPath.values()];
}

function realPathOrSelf(file: string): string {
  try {
    // The native call is one realpath(3); the JS one lstat()s every path component of every file.
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
