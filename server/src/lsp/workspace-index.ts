// The nginx files of the workspace folders: what include graphs are built from and what "fix all in workspace"
// fixes. The walk is bounded, so opening a home directory or a monorepo cannot stall the server; what counts as an
// nginx file is the CLI's rule (engine/nginx-files.ts).
//
// Nothing is read before it is known to be a regular file inside the folders: a workspace link to /dev/zero, to a
// FIFO or to /etc/nginx is stat()ed (a link: first resolved within the folders, see model/read-scope.ts), never
// opened. Links leading outside are remembered so the server can say it did not follow them.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isNginxFile } from '../engine/nginx-files.js';
import { entryKind, walkFiles, type EntryTypes } from '../engine/walk.js';
import { createReadScope, isUnder, type ReadScope } from '../model/read-scope.js';

export const MAX_INDEXED_FILES = 2000;
/** Directories listed at most per scan. */
export const MAX_SCANNED_DIRECTORIES = 20_000;
/** Links leading outside remembered per scan (to name them in a log line, not to list thousands). */
export const MAX_REMEMBERED_ESCAPES = 100;

export interface IndexLimits {
  files: number;
  directories: number;
}

export class WorkspaceIndex {
  private readonly files = new Set<string>();
  private folderPaths: string[] = [];
  /** True when the last scan stopped at a limit (the index then holds the files found first). */
  truncated = false;
  /** Symbolic links the last scan (and updates since) did not follow because they lead outside the folders. */
  readonly escaped = new Set<string>();

  constructor(private readonly limits: IndexLimits = { files: MAX_INDEXED_FILES, directories: MAX_SCANNED_DIRECTORIES }) {}

  get folders(): readonly string[] {
    return this.folderPaths;
  }

  /** Replaces the folders and rescans them. */
  scan(folders: readonly string[]): void {
    this.folderPaths = [...new Set(folders.map((folder) => path.resolve(folder)))];
    this.files.clear();
    this.escaped.clear();
    this.truncated = false;
    const scope = createReadScope(this.folderPaths);
    // The CLI's walker, with this server's limits: breadth first, so a cut-short scan keeps the shallow files.
    const walked = walkFiles(this.folderPaths, {
      allows: (link) => scope.allows(link),
      accept: isNginxFile,
      breadthFirst: true,
      maxFiles: this.limits.files,
      maxDirectories: this.limits.directories,
      maxEscaped: MAX_REMEMBERED_ESCAPES,
    });
    for (const file of walked.files) this.files.add(file);
    for (const link of walked.escaped) this.escaped.add(link);
    this.truncated = walked.truncated === true;
  }

  /** A file created or changed on disk: indexed when it is an nginx file inside a folder (and there is room). */
  update(file: string): void {
    const absolute = path.resolve(file);
    const inside = this.folderPaths.some((folder) => isUnder(absolute, folder));
    if (!inside || this.files.has(absolute) || this.files.size >= this.limits.files) return;
    let entry: EntryTypes;
    try {
      entry = lstatSync(absolute);
    } catch {
      return; // gone again
    }
    if (this.admits(absolute, entry, createReadScope(this.folderPaths))) this.files.add(absolute);
  }

  /** A regular file (or a link to one that stays inside the folders) with an nginx name or content: the walk's rule. */
  private admits(file: string, entry: EntryTypes, scope: ReadScope): boolean {
    const kind = entryKind(file, entry, (link) => scope.allows(link));
    if (kind === 'escaped' && this.escaped.size < MAX_REMEMBERED_ESCAPES) this.escaped.add(file);
    return kind === 'file' && isNginxFile(file);
  }

  remove(file: string): void {
    this.files.delete(path.resolve(file));
  }

  has(file: string): boolean {
    return this.files.has(path.resolve(file));
  }

  /** Sorted by code unit, so graphs and fixes do not depend on the order the disk listed them. */
  list(): string[] {
    return [...this.files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
