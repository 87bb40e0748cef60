// Which paths name the same file. Debian's layout links sites-enabled/app.conf to ../sites-available/app.conf, so
// `include sites-enabled/*.conf;` reaches a file that is also checked (or included) under its other name. Keyed by
// path, it was parsed, reported and fixed twice: `--fix` then refused its own second write ("changed on disk"), and an
// editor given one edit per path applied both to its one buffer. A file is identified by its real path; it keeps the
// name it was first met under (a document's: the path the user gave).
//
// Only asked about paths the read scope has already allowed (documents, and includes inside the checked paths), whose
// real paths stay inside it: resolving them tests nothing outside. A path that does not exist (an unsaved document
// of a language client, a virtual test path) is its own identity, with its existing directories resolved.
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { resolvedPath } from '../util/paths.js';
import { realPath } from './read-scope.js';

/**
 * Real paths, cached for one analysis (the disk is taken as fixed meanwhile, as everywhere else). The directory is
 * resolved once for all its files, so a glob matching thousands of files costs one lstat per file.
 */
export class FileIdentities {
  private readonly directories = new Map<string, string>();
  private readonly files = new Map<string, string>();

  /** `virtual`: the paths are not this machine's (a FileHost's `virtual`); each is its own identity, no disk asked. */
  constructor(private readonly virtual = false) {}

  /** The real path of `file` (absolute or relative to the working directory). */
  of(file: string): string {
    return this.identityOf(file, (absolute) => this.resolve(absolute));
  }

  /** `of` for a path already absolute and normalised (path.resolve's answer). */
  ofAbsolute(absolute: string): string {
    if (this.virtual) return absolute;
    let identity = this.files.get(absolute);
    if (identity === undefined) {
      identity = this.resolve(absolute);
      this.files.set(absolute, identity);
    }
    return identity;
  }

  /**
   * `file`'s identity, given its real path found by the caller (the CLI's discovery resolved it already): the disk
   * is not asked again. The first answer for a path stands, as for `of`.
   */
  known(file: string, realPath: string): string {
    return this.identityOf(file, () => realPath);
  }

  private identityOf(file: string, find: (absolute: string) => string): string {
    const absolute = resolvedPath(file);
    if (this.virtual) return absolute;
    let identity = this.files.get(absolute);
    if (identity === undefined) {
      identity = find(absolute);
      this.files.set(absolute, identity);
    }
    return identity;
  }

  private resolve(absolute: string): string {
    const directory = path.dirname(absolute);
    if (directory === absolute) return absolute;
    let realDirectory = this.directories.get(directory);
    if (realDirectory === undefined) {
      realDirectory = realPath(directory);
      this.directories.set(directory, realDirectory);
    }
    const candidate = path.join(realDirectory, path.basename(absolute));
    try {
      if (!lstatSync(candidate).isSymbolicLink()) return candidate;
      return realpathSync(candidate);
    } catch {
      // Missing, a dangling link or a loop: nothing else can be read under this name either.
      return candidate;
    }
  }
}
