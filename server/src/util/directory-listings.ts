// Directory listings for include globs, read once per directory and kept sorted, so that N globs over a directory of N
// files list it once, not N times (issue 26: 3,000 globs over 3,000 files took 16 s); fs-host.ts then tests only the
// names starting with a segment's literal prefix (`site1.con` for `site1.con[f]`), found by binary search.
//
// A listing is a snapshot of the disk. A host made for one run (the CLI, each analyze() and fixAll()) keeps its
// listings for its life; the language server's long-lived host passes listings it clears whenever it hears the disk
// changed, and which expire after `maxAgeMs` like its glob expansions (lsp/glob-cache.ts).
import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import { compareBytes } from './byte-order.js';

export interface Listing {
  /** The directory's real path; undefined when it is missing, a dangling link or a loop. */
  real: string | undefined;
  /** Its entries in byte order by name (empty when it cannot be listed). */
  entries: readonly Dirent[];
}

export class DirectoryListings {
  private readonly listings = new Map<string, { at: number; listing: Listing }>();
  /** readdir calls made (what the listing cache saves; tests count them). */
  reads = 0;

  constructor(
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  list(directory: string): Listing {
    const known = this.listings.get(directory);
    if (known && this.now() - known.at <= this.maxAgeMs) return known.listing;
    const listing = readListing(directory, () => this.reads++);
    this.listings.set(directory, { at: this.now(), listing });
    return listing;
  }

  clear(): void {
    this.listings.clear();
  }
}

function readListing(directory: string, counted: () => void): Listing {
  let real: string;
  try {
    real = realpathSync.native(directory);
  } catch {
    return { real: undefined, entries: [] };
  }
  let entries: Dirent[];
  try {
    counted();
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    entries = [];
  }
  return { real, entries: entries.sort((a, b) => compareBytes(a.name, b.name)) };
}
