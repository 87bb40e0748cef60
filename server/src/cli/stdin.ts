// `check -`: one file read from stdin. --stdin-filename names it, for everything a name decides: the report, where
// relative includes are looked for (and the read root they may be read from), the context inferred from the name,
// and which settings file applies. Without it the file is `<stdin>` in the working directory.
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from '../util/byte-size.js';
import type { CheckOptions } from './args.js';
import type { Discovery } from './discover.js';
import { displayPath } from '../util/paths.js';
import { isBinary, overLimitError, type ReadResult } from './read-documents.js';
import { NOT_UTF8 } from './write-fixes.js';

/** The name a nameless stdin file is reported under (ESLint's is `<text>`). */
export const STDIN_NAME = '<stdin>';

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
  // Loaded here: its node:tty (and node:net with it) cost every run that reads no stdin start-up time.
  const { readStdin } = await import('./stdin-read.js');
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
