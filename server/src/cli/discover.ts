// Expands the command line's paths into the list of files to check. A bad path never stops the others.
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { hasGlobMagic } from '../core/glob.js';
import { expandGlob } from './expand-glob.js';
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

export function discoverFiles(patterns: string[], cwd: string): Discovery {
  const found: string[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  const readRoots = new Set<string>();
  const reportFailures = (walked: WalkResult) => {
    for (const failure of walked.failures) {
      errors.push(`${displayPath(failure.path, cwd)}: ${describeFsError(failure.error)}`);
    }
  };

  for (const pattern of patterns) {
    const absolute = path.resolve(cwd, pattern);
    const stats = statOrError(absolute);
    if (stats instanceof Error && isMissing(stats) && hasGlobMagic(pattern)) {
      const matched = expandGlob(pattern, cwd);
      readRoots.add(matched.base);
      reportFailures(matched);
      if (matched.files.length === 0 && matched.failures.length === 0) errors.push(`${pattern}: no files match`);
      found.push(...matched.files);
    } else if (stats instanceof Error) {
      errors.push(`${pattern}: ${describeFsError(stats)}`);
    } else if (stats.isDirectory()) {
      const walked = walkFiles(absolute);
      readRoots.add(absolute);
      reportFailures(walked);
      const nginxFiles = walked.files.filter(isNginxFile);
      if (nginxFiles.length === 0 && walked.failures.length === 0) notes.push(`${pattern}: no nginx files found`);
      found.push(...nginxFiles);
    } else if (stats.isFile()) {
      found.push(absolute);
      readRoots.add(path.dirname(absolute));
    } else {
      // A FIFO or a device would block the read or never end; nginx configs are regular files.
      errors.push(`${pattern}: not a regular file`);
    }
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
