// Finds the nginx version a repository says it runs, on disk: Dockerfiles and compose files (engine/container-files.ts
// reads their text). Used by `check` and, per workspace folder, by the language server.
//
// Where it looks, nearest first, stopping at the first place that names an nginx image:
//   1. inside the directories being checked (walked as the check walks them: links only within the checked paths,
//      .git and node_modules skipped, at most MAX_DETECTION_DIRECTORIES directories, nearest first); several images
//      there: the oldest;
//   2. the directory of the first checked path (a file's directory; for a directory, its parent), then each directory
//      above it, up to the repository root (the first one holding `.git`); several images in one directory: the oldest.
//      No repository root: step 2 reads the first path's own directory only.
// Reading stays within what the user asked to check, except step 2's directories above the checked paths, the same
// exception the settings-file lookup makes (docs/security.md, Security): there only regular files (not links) with a Dockerfile
// or compose name are read, each at most MAX_CONTAINER_FILE_BYTES, and only an image reference and a line number
// ever reach a report.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  composeNginxImages,
  dockerfileNginxImage,
  isComposeName,
  isDockerfileName,
  oldestImage,
  type ImageMention,
} from './container-files.js';
import type { DetectedImage } from './nginx-target.js';
import { readRegularFile } from '../util/read-file.js';
import { isDirectory, pathExists } from '../util/stat.js';
import { walkFiles } from './walk.js';

/** A Dockerfile or compose file is a few kilobytes; a larger file with such a name is not one worth reading. */
export const MAX_CONTAINER_FILE_BYTES = 256 * 1024;

/**
 * Directories step 1 lists at most when it walks the checked directories itself (the language server's workspace
 * folders; the CLI hands over its own walk's files): breadth first, so in a huge tree the shallow directories, where
 * Dockerfiles and compose files live, are the ones searched. Without a bound, a 200,000-file workspace cost a second
 * of walking per detection.
 */
export const MAX_DETECTION_DIRECTORIES = 2_000;

export interface DetectionScope {
  /** Absolute directories being checked: searched through (step 1). */
  directories: readonly string[];
  /** The first checked path, absolute (a file, a directory or a glob's base): where step 2 starts. */
  first: string | undefined;
  /** Whether a symbolic link met inside the walked directories may be followed (the check's read scope). */
  allows(link: string): boolean;
  /**
   * The container files in `directories`, when a walk of them (the check's own) already listed them: step 1 then
   * reads these instead of walking the tree a second time.
   */
  listed?: readonly string[];
  /** Directories step 1's own walk lists at most. Default: MAX_DETECTION_DIRECTORIES. */
  maxDirectories?: number;
}

export function isContainerFileName(name: string): boolean {
  return isDockerfileName(name) || isComposeName(name);
}

/** The nginx images `file` names (a Dockerfile's last nginx stage, a compose file's every nginx `image:`). */
export function imagesInFile(file: string): DetectedImage[] {
  const read = readRegularFile(file, MAX_CONTAINER_FILE_BYTES);
  if (read.kind !== 'read') return [];
  const text = read.bytes.toString('utf8');
  const name = path.basename(file);
  const mentions: ImageMention[] = [];
  if (isDockerfileName(name)) {
    const image = dockerfileNginxImage(text);
    if (image) mentions.push(image);
  } else if (isComposeName(name)) {
    for (const image of composeNginxImages(text)) mentions.push(image);
  }
  return mentions.map((mention) => ({ ...mention, file }));
}

function oldestIn(files: readonly string[]): DetectedImage | undefined {
  const images: DetectedImage[] = [];
  // Sorted, so that among equally old images the same file is named on every machine.
  for (const file of [...files].sort()) for (const image of imagesInFile(file)) images.push(image);
  return oldestImage(images);
}



/**
 * Regular files (links excluded) directly in `directory` with a container-file name. Names first, then a stat of those
 * that match: a one-file check searches the file's own directory, which may hold thousands of configurations.
 */
function containerFilesIn(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names
    .filter((name) => isContainerFileName(name))
    .map((name) => path.join(directory, name))
    .filter(isRegularFile);
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first directory from `start` upward holding `.git` (a directory, or a worktree's file); undefined if none. */
export function repositoryRoot(start: string): string | undefined {
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (pathExists(path.join(directory, '.git'))) return directory;
    if (path.dirname(directory) === directory) return undefined;
  }
}

/**
 * Directories of step 2, nearest first: a file's (or glob's) own directory, then those above the first path up to the
 * repository root. A directory named on the command line was searched in step 1; nothing above a repository root,
 * or above the first path when there is no repository, is read.
 */
function directoriesAbove(first: string): string[] {
  let directory = path.resolve(first);
  const named = isDirectory(directory);
  while (!isDirectory(directory) && path.dirname(directory) !== directory) directory = path.dirname(directory);
  const chain = named ? [] : [directory];
  const root = repositoryRoot(directory);
  if (root === undefined || root === directory) return chain;
  for (let above = path.dirname(directory); ; above = path.dirname(above)) {
    chain.push(above);
    if (above === root || path.dirname(above) === above) return chain;
  }
}

/**
 * Step 1's files when nobody listed them: a walk of the checked directories, as the check walks them, of at most
 * MAX_DETECTION_DIRECTORIES directories in all, nearest first.
 */
function containerFilesBelow(scope: DetectionScope): string[] {
  const walked = walkFiles(scope.directories, {
    allows: scope.allows,
    accept: (file) => isContainerFileName(path.basename(file)),
    breadthFirst: true,
    maxDirectories: scope.maxDirectories ?? MAX_DETECTION_DIRECTORIES,
  });
  return walked.files;
}

export function detectNginxImage(scope: DetectionScope): DetectedImage | undefined {
  const found = oldestIn(scope.listed ?? containerFilesBelow(scope));
  if (found || scope.first === undefined) return found;
  for (const directory of directoriesAbove(scope.first)) {
    const nearest = oldestIn(containerFilesIn(directory));
    if (nearest) return nearest;
  }
  return undefined;
}
