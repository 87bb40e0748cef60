// The line index each model was built with, for the incremental model to derive the next text's index from it
// (LineIndex.edited) instead of searching a large file for every line break at every keystroke.
import type { LineIndex } from './line-index.js';
import type { ConfigFile } from './types.js';

const indexes = new WeakMap<ConfigFile, LineIndex>();

/** Records that `file`'s spans read positions from `lines`; returns `file`. */
export function withLines(file: ConfigFile, lines: LineIndex): ConfigFile {
  indexes.set(file, lines);
  return file;
}

/** The index `file` was built with, if a builder recorded it. */
export function linesOf(file: ConfigFile): LineIndex | undefined {
  return indexes.get(file);
}
