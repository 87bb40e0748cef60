// The FileHost of the real file system (the CLI's; the language server overlays open documents on top of it).
import { existsSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from './byte-size.js';
import { compileGlob, hasGlobMagic, type GlobMatcher } from './glob.js';
import { readRegularFile } from './read-file.js';
import type { FileHost, GlobConfinement } from './types.js';

/**
 * Directories one include glob enters at most. Links can make a tree look exponentially large (ten `ln -s . lN`
 * links under a pattern of seven `*` segments are 10^7 paths); entering each real directory once per segment makes
 * that seven directories, and this bound keeps what is left (a genuinely huge tree) to well under a second.
 */
export const MAX_GLOB_DIRECTORIES = 10_000;
/** Matches one glob returns at most when the caller gives no bound (includes pass the include limit). */
export const MAX_GLOB_MATCHES = 100_000;

/**
 * nginx sorts glob(3) results with the C locale: by bytes, not by UTF-16 code units or locale rules. UTF-8's byte
 * order is its code points' order, so this compares code points (a lone surrogate as U+FFFD, as the UTF-8 encoder
 * writes it) without encoding: the same answer as comparing the UTF-8 bytes, and no Buffer (the virtual hosts run
 * in a browser too).
 */
export function compareBytes(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = utf8CodePoint(a, i);
    const y = utf8CodePoint(b, j);
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

/** The code point UTF-8 encodes at `index`: a surrogate left alone becomes U+FFFD. */
function utf8CodePoint(text: string, index: number): number {
  const code = text.codePointAt(index)!;
  return code >= 0xd800 && code <= 0xdfff ? 0xfffd : code;
}


/** The entries of `directory` whose names match one glob segment, sorted by name in byte order. */
function matchingEntries(directory: string, pattern: GlobMatcher, includeHidden: boolean): Dirent[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((dirent) => (includeHidden || !dirent.name.startsWith('.')) && pattern.test(dirent.name))
    .sort((a, b) => compareBytes(a.name, b.name));
}

const UNCONFINED: GlobConfinement = { allows: () => true };

/** One expansion: the directory budget, the matches so far, and whether a bound stopped it. */
class GlobWalk {
  private directoriesLeft: number;
  private readonly maxMatches: number;
  readonly matches: string[] = [];
  private stopped = false;

  constructor(private readonly confinement: GlobConfinement) {
    this.directoriesLeft = confinement.maxDirectories ?? MAX_GLOB_DIRECTORIES;
    this.maxMatches = confinement.maxMatches ?? MAX_GLOB_MATCHES;
  }

  /** The paths one segment further down: directories to descend into, or (`last`) the matches. */
  level(bases: readonly string[], segment: string, last: boolean): string[] {
    const next: string[] = [];
    // Real paths entered at this level: two paths to one directory have the same matches below it.
    const entered = new Set<string>();
    const magic = hasGlobMagic(segment);
    const pattern = magic ? compileGlob(segment, { globstar: false }) : undefined;
    // Like glob(3), `*` and `?` do not match a leading dot.
    const includeHidden = segment.startsWith('.');
    for (const base of bases) {
      if (this.stopped) break;
      if (!this.enter(base, entered)) continue;
      if (!pattern) {
        const candidate = path.join(base, segment);
        // Not tested yet when not last: the next level enters it, or finds it missing.
        if (!last) next.push(candidate);
        else if (this.confirm(candidate)) this.addMatches([candidate]);
        continue;
      }
      const found: string[] = [];
      // In byte order, as nginx reads them: the matches kept at a bound, and the link reported, do not depend on
      // the order the file system lists a directory in.
      for (const dirent of matchingEntries(base, pattern, includeHidden)) {
        const entry = path.join(base, dirent.name);
        if (!last) {
          if (dirent.isDirectory() || dirent.isSymbolicLink()) next.push(entry);
        } else if (!dirent.isSymbolicLink() || this.confirm(entry)) {
          found.push(entry);
        }
      }
      if (last) this.addMatches(found);
    }
    return next;
  }

  /** Whether the glob may look inside `directory`: inside the confinement, a directory not entered yet, budget left. */
  private enter(directory: string, entered: Set<string>): boolean {
    if (this.directoriesLeft === 0) {
      this.stop('directories');
      return false;
    }
    this.directoriesLeft--;
    if (!this.confinement.allows(directory)) {
      this.confinement.outside?.(directory);
      return false;
    }
    let real: string;
    try {
      real = realpathSync.native(directory);
    } catch {
      return false; // missing, a dangling link or a loop: nothing to list
    }
    if (entered.has(real)) return false;
    entered.add(real);
    return true;
  }

  /** A link (or a literal name) at the end of the pattern: matched when inside the confinement and existing. */
  private confirm(candidate: string): boolean {
    if (this.confinement.allows(candidate)) return existsSync(candidate);
    // Refused only when it exists as a link leading outside (a missing name inside is allowed, then not found).
    this.confinement.outside?.(candidate);
    return false;
  }

  /** Adds one directory's matches (in byte order); past the bound, keeps the first ones and stops. */
  private addMatches(found: readonly string[]): void {
    const room = this.maxMatches - this.matches.length;
    // A loop: spreading 150,000 arguments into push overflows the stack.
    for (let i = 0; i < found.length && i < room; i++) this.matches.push(found[i]!);
    if (found.length > room) this.stop('matches');
  }

  private stop(bound: 'matches' | 'directories'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.confinement.limited?.(bound);
  }
}

/**
 * Expands an absolute nginx include glob one path segment at a time, from its literal prefix (which the caller has
 * checked against the read scope) down. Every directory is checked against the confinement before anything in it
 * is listed or tested, so a link to /etc is never listed, nor /etc/shadow tested for existence through it.
 */
export function globOnDisk(pattern: string, confinement: GlobConfinement = UNCONFINED): string[] {
  const absolute = path.resolve(pattern);
  const { root } = path.parse(absolute);
  const segments = absolute.slice(root.length).split(path.sep).filter((segment) => segment !== '');
  if (segments.length === 0) return [root];
  const firstMagic = segments.findIndex(hasGlobMagic);
  // Without a wildcard, the last segment is the one tested.
  const from = firstMagic === -1 ? segments.length - 1 : firstMagic;
  const walk = new GlobWalk(confinement);
  let bases = [path.join(root, ...segments.slice(0, from))];
  for (let index = from; index < segments.length && bases.length > 0; index++) {
    bases = walk.level(bases, segments[index]!, index === segments.length - 1);
  }
  return walk.matches.slice().sort(compareBytes);
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
