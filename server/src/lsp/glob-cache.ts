// Include globs expanded once per state of the disk, not once per analysis. The server analyzes after every edit,
// and each analysis resolves its includes afresh; a glob is bounded (util/fs-host.ts) but may still list thousands
// of directories, and the one analysis worker would pay that on every keystroke, with every other document's
// diagnostics and every request waiting behind it. An expansion is kept until the disk changes as the server hears
// of it (files created or deleted, folder and settings changes), and at most a few seconds: a client that watches no
// files still sees a new file in conf.d/ soon, at the cost of one expansion per pattern per few seconds. The directory
// listings the expansions read are kept alike (cleared together, expiring at the same age), so a thousand patterns
// over one directory list it once.
import type { FileHost, GlobConfinement } from '../util/types.js';

/** Expansions kept at most (each up to the include limit of paths); past it the cache starts over. */
export const MAX_CACHED_GLOBS = 1000;
/** How long an expansion is reused without any news from the disk. */
export const GLOB_CACHE_MAX_AGE_MS = 5000;

interface Expansion {
  /** now() when expanded. */
  at: number;
  paths: readonly string[];
  outside: readonly string[];
  limited: ReadonlyArray<'matches' | 'directories'>;
}

export class GlobCache {
  /** By confinement key (one read scope), then by bounds and pattern. */
  private readonly expansions = new Map<string, Map<string, Expansion>>();
  private size = 0;

  constructor(
    private readonly base: FileHost,
    private readonly maxAgeMs = GLOB_CACHE_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
    /** The directory listings under `base` (util/directory-listings.ts): cleared with the expansions. */
    private readonly listings?: { clear(): void },
  ) {}

  /** `base` with its globs answered from the cache. */
  get host(): FileHost {
    return {
      readFile: (file) => this.base.readFile(file),
      exists: (file) => this.base.exists(file),
      glob: (pattern, confinement) => this.glob(pattern, confinement),
    };
  }

  /** The disk changed: every expansion may be out of date. */
  clear(): void {
    this.expansions.clear();
    this.size = 0;
    this.listings?.clear();
  }

  private glob(pattern: string, confinement: GlobConfinement | undefined): string[] {
    // Without a key the confinement's answers cannot be told apart from another's: never reused.
    if (confinement?.cacheKey === undefined) return this.base.glob(pattern, confinement);
    const byScope = this.expansions.get(confinement.cacheKey);
    const key = `${confinement.maxMatches ?? ''}\0${confinement.maxDirectories ?? ''}\0${pattern}`;
    const known = byScope?.get(key);
    if (known && this.now() - known.at <= this.maxAgeMs) {
      // Replayed, so the caller reports the same links and bounds as the first time.
      for (const refused of known.outside) confinement.outside?.(refused);
      for (const bound of known.limited) confinement.limited?.(bound);
      return [...known.paths];
    }
    const outside: string[] = [];
    const limited: Array<'matches' | 'directories'> = [];
    const paths = this.base.glob(pattern, {
      ...confinement,
      outside: (refused) => {
        outside.push(refused);
        confinement.outside?.(refused);
      },
      limited: (bound) => {
        limited.push(bound);
        confinement.limited?.(bound);
      },
    });
    if (this.size >= MAX_CACHED_GLOBS) this.clear();
    let scoped = this.expansions.get(confinement.cacheKey);
    if (!scoped) {
      scoped = new Map();
      this.expansions.set(confinement.cacheKey, scoped);
    }
    scoped.set(key, { at: this.now(), paths: [...paths], outside, limited });
    this.size++;
    return paths;
  }
}
