// Writes --fix results without ever losing what is on disk:
// - atomically: the new text goes to a temp file in the same directory, which is then renamed over the file, so a
//   crash or a full disk leaves the old file or the new one, never half of each; the file's mode (and, for root, its
//   owner) is kept;
// - through symbolic links: sites-enabled/x -> sites-available/x is fixed in sites-available/x, and the link stays;
// - only over the text that was read: if the file changed on disk since (an editor saved it, a deploy replaced it),
//   it is left alone and the caller says so. The comparison re-reads it without blocking, only if it is still a
//   regular file, and no more bytes than the text read: a FIFO swapped in meanwhile would otherwise block the
//   re-read forever (and leave the temp file behind), a device would never end;
// - the temp file is removed on every path that does not rename it;
// - only inside the checked paths, and only a text that parses cleanly (fixAll already ensures both; a writer that
//   destroys configurations on a bug elsewhere is not acceptable, so it checks again).
import { chmodSync, chownSync, closeSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../util/read-file.js';
import type { SyntaxChecker } from '../engine/syntax-check.js';
import { createReadScope } from '../model/read-scope.js';
import { describeFsError } from '../util/paths.js';

export interface FixedFile {
  /** Absolute. */
  path: string;
  /** The text as it was read before fixing: the snapshot the disk is compared against. */
  original: string;
  fixed: string;
}

export interface WriteGuards {
  /** Absolute files or directories that may be written (the checked paths). */
  roots: readonly string[];
  isClean: SyntaxChecker;
  /**
   * Called with the new text in its temporary file, right before the disk is compared with the text read: the last
   * moment a concurrent change can still be detected. Tests change the file here; the CLI passes nothing.
   */
  beforeCommit?: (target: string) => void;
}

export interface WriteRefusal {
  path: string;
  reason: string;
}

export interface WriteOutcome {
  written: string[];
  refused: WriteRefusal[];
}

/** Why a file was not written; the file on disk is untouched. */
export class WriteRefused extends Error {}

const CHANGED = 'changed on disk since it was read, not written';
const NOT_REGULAR = 'not a regular file any more (replaced since it was read), not written';
/** Its decoded text would not write back the same bytes (stdin.ts refuses stdin so too). */
export const NOT_UTF8 = 'not valid UTF-8, not rewritten';

/** Writes each file independently: one refusal never stops the others. */
export function writeFixes(files: readonly FixedFile[], guards: WriteGuards): WriteOutcome {
  const outcome: WriteOutcome = { written: [], refused: [] };
  for (const file of files) {
    try {
      writeFixedFile(file, guards);
      outcome.written.push(file.path);
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
      outcome.refused.push({ path: file.path, reason: error.message });
    }
  }
  return outcome;
}

/** Throws WriteRefused, leaving the file as it was, when any guard fails. */
export function writeFixedFile(file: FixedFile, guards: WriteGuards): void {
  if (!createReadScope(guards.roots).allows(file.path)) {
    throw new WriteRefused('outside the checked paths, not written (check it, or its directory, to fix it)');
  }
  if (!guards.isClean(file.path, file.fixed)) {
    throw new WriteRefused('the fixed text would not parse cleanly, not written (please report this bug)');
  }
  const target = realPathOf(file.path);
  const stats = statOf(target);
  const temp = temporaryPathFor(target);
  // Removed on any failure once created (a full disk mid-write included), and only then: a name that happened to
  // exist (EEXIST) is someone else's file.
  let created = false;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    created = true;
    try {
      writeFileSync(fd, file.fixed);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, stats.mode & 0o7777);
    keepOwner(temp, stats.uid, stats.gid);
    guards.beforeCommit?.(target);
    // Compared as late as possible, right before the rename, to leave the smallest window for a concurrent change.
    assertUnchanged(target, file.original);
    renameSync(temp, target);
  } catch (error) {
    if (created) removeQuietly(temp);
    if (error instanceof WriteRefused) throw error;
    throw new WriteRefused(`cannot write: ${describeFsError(error)}`);
  }
}

function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    throw new WriteRefused(`cannot write: ${describeFsError(error)}`);
  }
}

function statOf(file: string) {
  let stats;
  try {
    stats = statSync(file);
  } catch (error) {
    throw new WriteRefused(`cannot write: ${describeFsError(error)}`);
  }
  // Replaced by a FIFO, a device or a directory since it was read: not ours to replace.
  if (!stats.isFile()) throw new WriteRefused(NOT_REGULAR);
  return stats;
}

/** Beside the target, so the rename stays on one file system (and is atomic); hidden, and unique per process. */
function temporaryPathFor(target: string): string {
  const unique = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return path.join(path.dirname(target), `.${path.basename(target)}.nginx-keepalive-${unique}.tmp`);
}

function assertUnchanged(target: string, original: string): void {
  // The text read has at least as many UTF-8 bytes as the file it was decoded from (an invalid sequence of up to
  // three bytes becomes U+FFFD, three bytes), so an unchanged file is never over this limit.
  const read = readRegularFile(target, Buffer.byteLength(original, 'utf8'));
  if (read.kind === 'failed') throw new WriteRefused(`cannot read it again before writing: ${describeFsError(read.error)}`);
  if (read.kind === 'not-regular') throw new WriteRefused(NOT_REGULAR);
  if (read.kind === 'too-large') throw new WriteRefused(CHANGED);
  const bytes = read.bytes;
  if (bytes.toString('utf8') !== original) throw new WriteRefused(CHANGED);
  // Same text, different bytes: the file is not valid UTF-8, and writing the decoded text back would corrupt it.
  if (!bytes.equals(Buffer.from(original, 'utf8'))) throw new WriteRefused(NOT_UTF8);
}

/** Only root can give a file away; for anyone else the new file is theirs, as with any editor's save. */
function keepOwner(file: string, uid: number, gid: number): void {
  if (process.getuid?.() !== 0) return;
  try {
    chownSync(file, uid, gid);
  } catch {
    // Best effort: the content and mode are what the check is about.
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Never created, or already gone.
  }
}
