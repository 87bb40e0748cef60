// `check -`: one file read from stdin. --stdin-filename names it, for everything a name decides: the report, where
// relative includes are looked for (and the read root they may be read from), the context inferred from the name,
// and which settings file applies. Without it the file is `<stdin>` in the working directory.
import { isUtf8 } from 'node:buffer';
import { read as readFd } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { DEFAULT_MAX_FILE_BYTES } from '../util/byte-size.js';
import type { CheckOptions } from './args.js';
import type { Discovery } from './discover.js';
import { displayPath } from '../util/paths.js';
import { isBinary, overLimitError, type ReadResult } from './read-documents.js';
import { NOT_UTF8 } from './write-fixes.js';

/** The name a nameless stdin file is reported under (ESLint's is `<text>`). */
export const STDIN_NAME = '<stdin>';

/** One read at most this many bytes: a pipe hands over 64 KB at a time anyway. */
const CHUNK_BYTES = 64 * 1024;
/** How long stdin may stay silent before a note says what the program is waiting for. */
export const STDIN_WAITING_NOTE_MS = 5000;
/** A descriptor left non-blocking by whoever opened it answers EAGAIN while the writer is busy: retry after this. */
const RETRY_MS = 10;

export type StdinRead =
  | { kind: 'read'; bytes: Buffer }
  /** A terminal: nobody piped a file in, and reading would wait for typing with no prompt. */
  | { kind: 'tty' }
  /** More than the limit: reading stopped one byte past it, the rest is never read. */
  | { kind: 'too-large' }
  | { kind: 'failed'; error: unknown };

export interface StdinOptions {
  /** Default 0. */
  fd?: number;
  /** Called once when nothing has arrived after `waitingAfterMs`: stdin is a pipe or file whose writer is silent. */
  onWaiting?(): void;
  waitingAfterMs?: number;
}

function readChunk(fd: number, buffer: Buffer, offset: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    // Position null: read on from where the descriptor is (a pipe has no position; a redirected file does).
    readFd(fd, buffer, offset, length, null, (error, bytesRead) => {
      if (!error) resolve(bytesRead);
      else if (error.code === 'EAGAIN') setTimeout(() => readChunk(fd, buffer, offset, length).then(resolve, reject), RETRY_MS);
      else reject(error);
    });
  });
}

/**
 * All of stdin, but never more than `maxBytes` + 1 bytes read (the one past the limit tells that there was more):
 * `check - < /dev/zero` ends at the limit instead of filling the memory. Reads the descriptor directly rather than
 * through process.stdin, which would switch a pipe to non-blocking mode and read ahead without bound.
 */
export async function readStdin(maxBytes: number, options: StdinOptions = {}): Promise<StdinRead> {
  const fd = options.fd ?? 0;
  if (isatty(fd)) return { kind: 'tty' };
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1));
  let length = 0;
  const timer = options.onWaiting && setTimeout(options.onWaiting, options.waitingAfterMs ?? STDIN_WAITING_NOTE_MS);
  // Never keeps the process alive by itself; the pending read does.
  timer?.unref();
  try {
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { kind: 'too-large' };
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = await readChunk(fd, buffer, length, Math.min(CHUNK_BYTES, buffer.length - length));
      if (read === 0) return { kind: 'read', bytes: buffer.subarray(0, length) };
      if (length === 0 && timer) clearTimeout(timer);
      length += read;
    }
  } catch (error) {
    return { kind: 'failed', error };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** The absolute path the stdin file goes by. */
export function stdinPath(options: Pick<CheckOptions, 'stdinFilename'>, cwd: string): string {
  return path.resolve(cwd, options.stdinFilename ?? STDIN_NAME);
}

/**
 * What discovery would say about stdin: the one file, and its directory as the read root (as for a file named on the
 * command line), so its includes are followed there and nowhere else. Unnamed, that is the working directory.
 */
export function stdinDiscovery(options: Pick<CheckOptions, 'stdinFilename'>, cwd: string): Discovery {
  const file = stdinPath(options, cwd);
  return { files: [file], errors: [], notes: [], readRoots: [path.dirname(file)] };
}

/**
 * Reads stdin as the one document of the run, with readDocuments' errors and notes (size limit, binary). With
 * `rewrites` the text goes back out on stdout (`format -`, `check - --fix`), where a pipeline or an editor takes it
 * in place of the file: input whose bytes would not come back as they came (not UTF-8: decoding makes U+FFFD of it)
 * or that is binary (nothing would come back) is an error then, as on disk, instead of a corrupted or empty file.
 */
export async function readStdinDocuments(
  options: Pick<CheckOptions, 'stdinFilename'>,
  cwd: string,
  maxFileBytes: number | undefined,
  onWaiting?: () => void,
  rewrites = false,
): Promise<ReadResult> {
  const file = stdinPath(options, cwd);
  const shown = displayPath(file, cwd);
  const limit = maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const read = await readStdin(limit, { onWaiting });
  const result: ReadResult = { documents: [], errors: [], notes: [] };
  if (read.kind === 'tty') {
    result.errors.push(`${shown}: stdin is a terminal; pipe a configuration in, e.g. nginx -T | nginx-keepalive check -`);
  } else if (read.kind === 'failed') {
    const reason = read.error instanceof Error ? read.error.message : String(read.error);
    result.errors.push(`${shown}: stdin could not be read: ${reason}`);
  } else if (read.kind === 'too-large') {
    result.errors.push(overLimitError(shown, 'stdin holds more than', limit));
  } else if (isBinary(read.bytes)) {
    if (rewrites) result.errors.push(`${shown}: binary file (it holds a NUL byte), not rewritten`);
    else result.notes.push(`${shown}: skipped (binary file)`);
  } else if (rewrites && !isUtf8(read.bytes)) {
    result.errors.push(`${shown}: ${NOT_UTF8}`);
  } else {
    result.documents.push({ path: file, text: read.bytes.toString('utf8') });
  }
  return result;
}

/** The note shown when stdin stays silent: a forgotten pipe looks like a hang otherwise. */
export function waitingNote(): string {
  return `waiting for a configuration on stdin (e.g. nginx -T | nginx-keepalive check -)`;
}
