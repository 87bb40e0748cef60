// Expands the command line's paths into the list of files to check. A bad path never stops the others.
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { hasGlobMagic } from '../util/glob.js';
import { createReadScope } from '../model/read-scope.js';
import { expandGlob, globRoot } from './expand-glob.js';
import { classifyFile } from '../engine/nginx-files.js';
import { isContainerFileName } from '../engine/version-detect.js';
import { describeFsError, displayPath } from '../util/paths.js';
import { walkFiles, type WalkResult } from '../engine/walk.js';
import { compareCodeUnits, nativeRealPath, uniqueByRealPath } from '../engine/checked-files.js';

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
  /**
   * What directory walks found and did not check, with why (for --debug and the stylish summary's count): files the
   * name or content rule left out, and directories (`node_modules/`) never entered. Sorted by path.
   */
  skipped?: SkippedPath[];
  /** Dockerfiles and compose files the directory walks met: version detection reads these instead of walking again. */
  containerFiles?: string[];
  /** Files the content sniff read whole (path -> text and size): readDocuments uses the text instead of reading again. */
  alreadyRead?: ReadonlyMap<string, { text: string; bytes: number }>;
  /** The real path of each of `files` that has one (found when duplicates were removed): the analysis reuses them. */
  realPaths?: ReadonlyMap<string, string>;
}

export interface SkippedPath {
  /** Absolute; a directory's ends without a separator and has `directory: true`. */
  path: string;
  reason: string;
  directory?: boolean;
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
  const skipped: SkippedPath[] = [];
  const containerFiles: string[] = [];
  const alreadyRead = new Map<string, { text: string; bytes: number }>();
  /** Real paths the walks found from their directories' (walk.ts), so that no file is resolved again. */
  const knownRealPaths = new Map<string, string>();
  const report = (walked: WalkResult) => {
    for (const failure of walked.failures) {
      errors.push(`${displayPath(failure.path, cwd)}: ${describeFsError(failure.error)}`);
    }
    for (const link of walked.escaped) escaped.add(link);
  };
  // A loop: spreading 150,000 arguments into push overflows the stack.
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
      const walked = walkFiles(arg.absolute, { allows, realPaths: true });
      report(walked);
      for (const [file, real] of walked.realPaths ?? []) knownRealPaths.set(file, real);
      const nginxFiles: string[] = [];
      for (const file of walked.files) {
        // The walk joined the name to its directory with one separator: the name is what follows the last one.
        const name = file.slice(file.lastIndexOf(path.sep) + 1);
        if (isContainerFileName(name)) containerFiles.push(file);
        const claim = classifyFile(file, name);
        if (!claim.claimed) {
          skipped.push({ path: file, reason: claim.reason });
          continue;
        }
        nginxFiles.push(file);
        if (claim.read) alreadyRead.set(file, claim.read);
      }
      for (const directory of walked.skippedDirectories ?? []) {
        skipped.push({ path: directory, reason: 'dependencies or version control', directory: true });
      }
      for (const other of walked.skippedOthers ?? []) skipped.push({ path: other.path, reason: `${other.what}, not read` });
      // As ESLint's "no files matching": a walk that finds nothing to check is a mistake to tell (a wrong directory,
      // or configs under names and contents this tool does not know), not a clean run.
      if (nginxFiles.length === 0 && walked.failures.length === 0) errors.push(noNginxFiles(arg.pattern, walked.files.length));
      add(nginxFiles);
    } else {
      found.push(arg.absolute);
    }
  }
  for (const link of [...escaped].sort(compareCodeUnits)) {
    notes.push(`${displayPath(link, cwd)}: a symbolic link leading outside the checked paths, not followed`);
  }
  // Each file once, by the name that sorts first (engine/checked-files.ts, which the language server uses too).
  const { files, realPaths } = uniqueByRealPath(found, (file) => knownRealPaths.get(file) ?? nativeRealPath(file));
  return {
    files,
    realPaths,
    errors,
    notes,
    readRoots: [...readRoots].sort(),
    skipped: uniqueSkipped(skipped, new Set(found)),
    containerFiles,
    alreadyRead,
  };
}

function noNginxFiles(pattern: string, looked: number): string {
  const what = looked === 0 ? 'it holds no files' : `${looked} file${looked === 1 ? '' : 's'} skipped; --debug says why`;
  return `${pattern}: no nginx files found (${what})`;
}

/**
 * Two walks over one tree (`check . deploy`) skip its files twice: once each, in path order. A file a walk skipped but
 * the command line also names (`check . sites/gitlab`) is checked, so not skipped.
 */
function uniqueSkipped(skipped: SkippedPath[], checked: ReadonlySet<string>): SkippedPath[] {
  const byPath = new Map<string, SkippedPath>();
  for (const entry of skipped) if (!checked.has(entry.path)) byPath.set(entry.path, entry);
  return [...byPath.values()].sort((a, b) => compareCodeUnits(a.path, b.path));
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

