// The FileHost of the real file system (the CLI's; the language server overlays open documents on top of it).
import { existsSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from './byte-size.js';
import { compareBytes, withPrefix } from './byte-order.js';
import { DirectoryListings, type Listing } from './directory-listings.js';
import { compileGlob, hasGlobMagic, literalPrefix, type GlobMatcher } from './glob.js';
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

export { compareBytes } from './byte-order.js';

/**
 * The entries of a listing whose names match one glob segment, in byte order: only the names starting with the
 * segment's literal prefix are tested.
 */
function matchingEntries(entries: readonly Dirent[], segment: string, pattern: GlobMatcher): Dirent[] {
  // Like glob(3), `*` and `?` do not match a leading dot.
  const includeHidden = segment.startsWith('.');
  return withPrefix(entries, literalPrefix(segment), (dirent) => dirent.name).filter(
    (dirent) => (includeHidden || !dirent.name.startsWith('.')) && pattern.test(dirent.name),
  );
}

const UNCONFINED: GlobConfinement = { allows: () => true };

/**
 * Compiled segments by their text: the same `*.conf` is matched under every root that includes `conf.d/*.conf`.
 * Bounded, as a table of what the configs wrote must be; a matcher holds no state between tests.
 */
const segmentMatchers = new Map<string, GlobMatcher>();
const MAX_SEGMENT_MATCHERS = 1024;

function segmentMatcher(segment: string): GlobMatcher {
  let matcher = segmentMatchers.get(segment);
  if (matcher === undefined) {
    matcher = compileGlob(segment, { globstar: false });
    if (segmentMatchers.size < MAX_SEGMENT_MATCHERS) segmentMatchers.set(segment, matcher);
  }
  return matcher;
}

/** One expansion: the directory budget, the matches so far, and whether a bound stopped it. */
class GlobWalk {
  private directoriesLeft: number;
  private readonly maxMatches: number;
  readonly matches: string[] = [];
  private stopped = false;

  constructor(
    private readonly confinement: GlobConfinement,
    private readonly listings: DirectoryListings,
  ) {
    this.directoriesLeft = confinement.maxDirectories ?? MAX_GLOB_DIRECTORIES;
    this.maxMatches = confinement.maxMatches ?? MAX_GLOB_MATCHES;
  }

  /** The paths one segment further down: directories to descend into, or (`last`) the matches. */
  level(bases: readonly string[], segment: string, last: boolean): string[] {
    const next: string[] = [];
    // Real paths entered at this level: two paths to one directory have the same matches below it.
    const entered = new Set<string>();
    const magic = hasGlobMagic(segment);
    const pattern = magic ? segmentMatcher(segment) : undefined;
    for (const base of bases) {
      if (this.stopped) break;
      const listing = this.enter(base, entered);
      if (!listing) continue;
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
      for (const dirent of matchingEntries(listing.entries, segment, pattern)) {
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

  /**
   * The listing of `directory` when the glob may look inside it (inside the confinement, a real directory not entered
   * yet at this level, budget left); undefined otherwise.
   */
  private enter(directory: string, entered: Set<string>): Listing | undefined {
    if (this.directoriesLeft === 0) {
      this.stop('directories');
      return undefined;
    }
    this.directoriesLeft--;
    if (!this.confinement.allows(directory)) {
      this.confinement.outside?.(directory);
      return undefined;
    }
    const listing = this.listings.list(directory);
    // Missing, a dangling link or a loop: nothing to list.
    if (listing.real === undefined || entered.has(listing.real)) return undefined;
    entered.add(listing.real);
    return listing;
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
export function globOnDisk(
  pattern: string,
  confinement: GlobConfinement = UNCONFINED,
  listings: DirectoryListings = new DirectoryListings(),
): string[] {
  const absolute = path.resolve(pattern);
  const { root } = path.parse(absolute);
  const segments = absolute.slice(root.length).split(path.sep).filter((segment) => segment !== '');
  if (segments.length === 0) return [root];
  const firstMagic = segments.findIndex(hasGlobMagic);
  // Without a wildcard, the last segment is the one tested.
  const from = firstMagic === -1 ? segments.length - 1 : firstMagic;
  const walk = new GlobWalk(confinement, listings);
  let bases = [path.join(root, ...segments.slice(0, from))];
  for (let index = from; index < segments.length && bases.length > 0; index++) {
    bases = walk.level(bases, segments[index]!, index === segments.length - 1);
  }
  return walk.matches.slice().sort(compareBytes);
}

export interface FsHostOptions {
  /** Included files larger than this are not read (reported as unreadable). Default: DEFAULT_MAX_FILE_BYTES. */
  maxFileBytes?: number;
  /**
   * Where the host's globs keep the directories they list. Default: listings kept for the host's life, right for a
   * host made for one run (the CLI's, each analyze()'s); a long-lived host passes listings it clears when the disk
   * changes.
   */
  listings?: DirectoryListings;
}

export function createFsHost(options: FsHostOptions = {}): FileHost {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const listings = options.listings ?? new DirectoryListings();
  return {
    readFile(filePath) {
      // Not readFileSync: an include naming a FIFO would block forever, one naming a huge file would exhaust memory.
      const read = readRegularFile(filePath, maxFileBytes);
      return read.kind === 'read' ? read.bytes.toString('utf8') : undefined;
    },
    glob: (pattern, confinement) => globOnDisk(pattern, confinement, listings),
    exists: (filePath) => existsSync(filePath),
  };
}
