// Reads the discovered files into SourceDocuments. An unreadable file is reported and the rest are still read.
import { DEFAULT_MAX_FILE_BYTES, formatByteSize } from '../util/byte-size.js';
import { readRegularFile, type FileRead } from '../util/read-file.js';
import type { SourceDocument } from '../util/types.js';
import { describeFsError, displayPath, hasUndecodableName, undecodableNameError } from '../util/paths.js';

export interface ReadResult {
  documents: SourceDocument[];
  /** One line each; any of them makes the exit code 2. */
  errors: string[];
  /** One line each (skipped binary files); not a failure. */
  notes: string[];
}

export interface ReadOptions {
  /** Files larger than this are not read: an error naming the limit (default DEFAULT_MAX_FILE_BYTES). */
  maxFileBytes?: number;
  /** Files discovery read whole already (discover.ts alreadyRead): their text is used as read then. */
  alreadyRead?: ReadonlyMap<string, { text: string; bytes: number }>;
  /** Real paths discovery resolved (discover.ts realPaths): each document carries its own. */
  realPaths?: ReadonlyMap<string, string>;
}

/** Git's heuristic: a NUL byte early on means binary. Text configs never contain one. */
const BINARY_SNIFF_BYTES = 8192;

export function readDocuments(files: string[], cwd: string, options: ReadOptions = {}): ReadResult {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const result: ReadResult = { documents: [], errors: [], notes: [] };
  for (const file of files) {
    const sniffed = options.alreadyRead?.get(file);
    if (sniffed && sniffed.bytes <= maxFileBytes) {
      // Read whole by the content sniff, which also found no NUL (binary): the same text a second read would give.
      result.documents.push(withRealPath({ path: file, text: sniffed.text }, options.realPaths));
      continue;
    }
    const shown = displayPath(file, cwd);
    // A name that was not valid UTF-8 (walk.ts) cannot be opened through a string: say so rather than "no such file".
    // The error and note lines name the file (displayPath), computed only for them: most files need no name.
    const read: FileRead = hasUndecodableName(file)
      ? { kind: 'failed', error: undecodableNameError() }
      : readRegularFile(file, maxFileBytes);
    if (read.kind === 'failed') {
      result.errors.push(`${displayPath(file, cwd)}: ${describeFsError(read.error)}`);
    } else if (read.kind === 'not-regular') {
      // Discovery only lists regular files; this one was replaced (by a FIFO, a directory...) since.
      result.errors.push(`${displayPath(file, cwd)}: not a regular file`);
    } else if (read.kind === 'too-large') {
      result.errors.push(overLimitError(displayPath(file, cwd), `${formatByteSize(read.size)} is over`, maxFileBytes));
    } else if (isBinary(read.bytes)) {
      result.notes.push(`${displayPath(file, cwd)}: skipped (binary file)`);
    } else {
      // Invalid UTF-8 becomes U+FFFD, one UTF-16 unit per bad sequence: positions after it stay on their line and
      // column; --fix refuses to rewrite such a file (write-fixes.ts), since the bytes would not round-trip.
      result.documents.push(withRealPath({ path: file, text: read.bytes.toString('utf8') }, options.realPaths));
    }
  }
  return result;
}

function withRealPath(document: SourceDocument, realPaths: ReadonlyMap<string, string> | undefined): SourceDocument {
  const realPath = realPaths?.get(document.path);
  return realPath === undefined ? document : { ...document, realPath };
}

/** `x: not checked: <amount> the 10 MB file size limit (raise it …)`, for files and stdin alike. */
export function overLimitError(shown: string, amount: string, limit: number): string {
  return (
    `${shown}: not checked: ${amount} the ${formatByteSize(limit)} file size limit ` +
    '(raise it with --max-file-size or "maxFileSize" in .nginx-keepalive.json)'
  );
}

export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
