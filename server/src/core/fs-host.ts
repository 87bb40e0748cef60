// The FileHost of the real file system (the CLI's; the language server overlays open documents on top of it).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from './byte-size.js';
import { globToRegExp, hasGlobMagic } from './glob.js';
import { readRegularFile } from './read-file.js';
import type { FileHost } from './types.js';

/** nginx sorts glob(3) results with the C locale: by bytes, not by UTF-16 code units or locale rules. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

function listDirectory(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** Entries of `directory` matching one glob segment; like glob(3), `*` and `?` do not match a leading dot. */
function matchSegment(directory: string, segment: string): string[] {
  const pattern = globToRegExp(segment, { globstar: false });
  const includeHidden = segment.startsWith('.');
  return listDirectory(directory)
    .filter((entry) => (includeHidden || !entry.startsWith('.')) && pattern.test(entry))
    .map((entry) => path.join(directory, entry));
}

/** Expands an absolute nginx include glob one path segment at a time. */
export function globOnDisk(pattern: string): string[] {
  const absolute = path.resolve(pattern);
  const { root } = path.parse(absolute);
  const segments = absolute.slice(root.length).split(path.sep).filter((segment) => segment !== '');
  let matches = [root];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const next: string[] = [];
    for (const base of matches) {
      if (!hasGlobMagic(segment)) next.push(path.join(base, segment));
      else next.push(...matchSegment(base, segment).filter((match) => last || isDirectory(match)));
    }
    matches = next;
  });
  return matches.filter((match) => existsSync(match)).sort(compareBytes);
}

export interface FsHostOptions {
  /** Included files larger than this are not read (reported as unreadable). Default: DEFAULT_MAX_FILE_BYTES. */
  maxFileBytes?: number;
}

export function createFsHost(options: FsHostOptions = {}): FileHost {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  return {
    readFile(filePath) {
      // Not readFileSync: an include naming a FIFO would block forever, one naming a huge file would exhaust memory.
      const read = readRegularFile(filePath, maxFileBytes);
      return read.kind === 'read' ? read.bytes.toString('utf8') : undefined;
    },
    glob: globOnDisk,
    exists: (filePath) => existsSync(filePath),
  };
}
