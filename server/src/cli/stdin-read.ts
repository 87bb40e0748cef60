// Reading stdin for `check -` and `format -` (stdin.ts), in its own module: node:tty, which the terminal check needs,
// loads node:net, and stdin.ts is loaded by every run.
import { read as readFd } from 'node:fs';
import { isatty } from 'node:tty';

/** How long stdin may stay silent before a note says what the program is waiting for. */
export const STDIN_WAITING_NOTE_MS = 5000;
/** One read at most this many bytes: a pipe hands over 64 KB at a time anyway. */
const CHUNK_BYTES = 64 * 1024;
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

