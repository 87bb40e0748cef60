// Reads the discovered files into SourceDocuments. An unreadable file is reported and the rest are still read.
import { readFileSync } from 'node:fs';
import type { SourceDocument } from '../core/types.js';
import { describeFsError, displayPath } from './paths.js';

export interface ReadResult {
  documents: SourceDocument[];
  /** One line each; any of them makes the exit code 2. */
  errors: string[];
  /** One line each (skipped binary files); not a failure. */
  notes: string[];
}

/** Git's heuristic: a NUL byte early on means binary. Text configs never contain one. */
const BINARY_SNIFF_BYTES = 8192;

export function readDocuments(files: string[], cwd: string): ReadResult {
  const result: ReadResult = { documents: [], errors: [], notes: [] };
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      result.errors.push(`${displayPath(file, cwd)}: ${describeFsError(error)}`);
      continue;
    }
    if (isBinary(bytes)) {
      result.notes.push(`${displayPath(file, cwd)}: skipped (binary file)`);
      continue;
    }
    result.documents.push({ path: file, text: bytes.toString('utf8') });
  }
  return result;
}

export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
