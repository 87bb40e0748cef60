// Reads a file the checker was pointed at, or that an include names, without trusting it to be one: a FIFO or a
// device would block the read forever or never end, and a huge file would take the process's memory with it.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type FileRead =
  | { kind: 'read'; bytes: Buffer }
  /** A FIFO, socket, device or directory: never read. */
  | { kind: 'not-regular' }
  /** Over the limit: `size` is what the file system reported (or at least limit + 1 when it grew while read). */
  | { kind: 'too-large'; size: number }
  | { kind: 'failed'; error: unknown };

type NotRead = Exclude<FileRead, { kind: 'read' | 'too-large' }>;

/**
 * Opens without blocking (opening a FIFO nobody writes to would otherwise wait forever), checks the open file is a
 * regular one, and hands it to `read`; the descriptor is closed whatever happens.
 */
function withRegularFile<T>(file: string, read: (fd: number, size: number) => T): T | NotRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { kind: 'failed', error };
  }
  try {
    const stats = fstatSync(fd);
    // Opening a directory read-only succeeds; report it as reading it would (EISDIR), which people know.
    if (stats.isDirectory()) return { kind: 'failed', error: Object.assign(new Error('is a directory'), { code: 'EISDIR' }) };
    if (!stats.isFile()) return { kind: 'not-regular' };
    return read(fd, stats.size);
  } catch (error) {
    return { kind: 'failed', error };
  } finally {
    closeSync(fd);
  }
}

/** A regular file's bytes when it has at most `maxBytes` (see withRegularFile). */
export function readRegularFile(file: string, maxBytes: number): FileRead {
  return withRegularFile<FileRead>(file, (fd, size) =>
    size > maxBytes ? { kind: 'too-large', size } : readBounded(fd, size, maxBytes),
  );
}

/**
 * Reads to the end, but never more than maxBytes: a file may grow between fstat and the read. A read that brings
 * exactly the size fstat gave ends it (the file as it was then), without one more read to see the end: a walk reads
 * thousands of small files, and that second system call was a third of the reading. A file fstat calls empty
 * (`/proc`'s are) is still read to its end.
 */
function readBounded(fd: number, expected: number, maxBytes: number): FileRead {
  let buffer = Buffer.allocUnsafe(Math.min(expected, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return { kind: 'too-large', size: length };
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    length += read;
    if (read === 0 || (length === expected && expected > 0)) return { kind: 'read', bytes: buffer.subarray(0, length) };
  }
}

export type PrefixRead = NotRead | { kind: 'read'; bytes: Buffer; truncated: boolean };

/**
 * The first `maxBytes` bytes of a regular file, however large it is (`truncated` when there was more): for sniffing
 * what a file is. Opens without blocking and never reads a FIFO or a device, as readRegularFile.
 *
 * `scratch` (at least maxBytes + 1 long), when given, is read into instead of a new buffer, and the bytes returned are
 * a view of it, valid until the caller reads into it again: a directory walk sniffs thousands of files, and a fresh
 * 64 KB buffer for each (most of them a few KB) was garbage the collector had to chase.
 */
export function readRegularFilePrefix(file: string, maxBytes: number, scratch?: Buffer): PrefixRead {
  return withRegularFile<PrefixRead>(file, (fd, size) => {
    // One byte more than kept tells whether there was more, even when the file grew since fstat.
    const buffer =
      scratch === undefined || scratch.length <= maxBytes
        ? Buffer.allocUnsafe(maxBytes + 1)
        : scratch.length === maxBytes + 1
          ? scratch
          : scratch.subarray(0, maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      length += read;
      // All fstat said there was: done, as readBounded.
      if (read === 0 || (length === size && size > 0)) break;
    }
    return { kind: 'read', bytes: buffer.subarray(0, Math.min(length, maxBytes)), truncated: length > maxBytes };
  });
}
