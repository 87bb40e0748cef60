// What one analysis of the language server takes: a workspace folder is analyzed as `check .` run in it, so the editor
// shows exactly the CLI's findings (issue 25). The folder's documents are the nginx files its walk finds (the CLI's
// rule, workspace-index.ts), each file once under the name `check` gives it (engine/checked-files.ts: a sites-enabled
// link and its sites-available target are one file, kept under the name that sorts first), with the open documents'
// unsaved texts; an open document the walk would not pick up joins them, as `check . <file>` would. Every root,
// include and cross-root lookup of the CLI's run (an upstream in conf.d/ used by a site) is then the server's too.
//
// A folder whose nginx files are over FOLDER_ANALYSIS_MAX_BYTES or the workspace file bound (editor-settings.ts), a
// file outside every folder, and a server without a disk (the browser) keep the older unit: a root file and what it
// includes (include-graph.ts). The byte bound is typing latency: every keystroke analyzes the whole unit again (the
// reuse of finding-reuse.ts and block-rerun.ts spares some rules, not all), and a 1 MB generated config beside the
// file typed in made a 5,000-line file's p50 30 times slower (bench/lsp-latency.mjs). Splitting a large folder into
// the independent groups `check --jobs` proves (cli/parallel/) would lift it; not done yet.
import { statSync } from 'node:fs';
import { uniqueByRealPath, type CheckedFiles } from '../engine/checked-files.js';
import { isUnder } from '../model/read-scope.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { OpenDocuments } from './documents.js';
import type { OpenDocument } from './open-document.js';
import { WORKSPACE_DIAGNOSTICS_MAX_FILES } from './editor-settings.js';
import type { IncludeGraph } from './include-graph.js';
import { deepestFolder, isFileUri } from './paths.js';
import type { WorkspaceIndex } from './workspace-index.js';

/** A folder holding more nginx text than this is analyzed by include graph (see above). */
export const FOLDER_ANALYSIS_MAX_BYTES = 512 * 1024;

/** A unit's key names a folder with this prefix; any other key is a root file's path. */
const FOLDER_KEY = 'folder:';

export function folderOfUnit(key: string): string | undefined {
  return key.startsWith(FOLDER_KEY) ? key.slice(FOLDER_KEY.length) : undefined;
}

export interface UnitsDeps {
  index: WorkspaceIndex;
  documents: OpenDocuments;
  graph: IncludeGraph;
  host: FileHost;
  /** False in a web worker: no disk, no folders to walk. */
  disk: boolean;
  maxFileSize(file: string): number;
  /** Says once per folder that it is analyzed by include graph, and why. */
  log(message: string): void;
}

interface FolderFiles extends CheckedFiles {
  /** Over the workspace bound (or the index was cut short): the folder's files are analyzed by include graph. */
  over: boolean;
}

export class AnalysisUnits {
  /** Per folder, the walk's files made unique; dropped when the index, the open documents or the disk change. */
  private readonly folders = new Map<string, FolderFiles>();
  /**
   * Closed files' texts with the stamp (mtime, size, inode) they were read at: a keystroke's analysis of a folder
   * stats its files instead of reading them all again (a client need not report changes on disk to be seen).
   */
  private readonly texts = new Map<string, { stamp: string; text: string }>();
  /** Folders already said to be over the bound. */
  private readonly told = new Set<string>();

  constructor(private readonly deps: UnitsDeps) {}

  invalidate(): void {
    this.folders.clear();
    // Texts of files no longer indexed (deleted, or their folder removed) are not held for nothing.
    for (const file of this.texts.keys()) if (!this.deps.index.has(file)) this.texts.delete(file);
  }

  /** A closed file's text, read again only when its stamp changed. */
  private closedText(file: string): string | undefined {
    const stamp = stampOf(file);
    const known = this.texts.get(file);
    if (stamp !== undefined && known?.stamp === stamp) return known.text;
    const text = this.deps.host.readFile(file);
    if (text === undefined || stamp === undefined) this.texts.delete(file);
    else this.texts.set(file, { stamp, text });
    return text;
  }

  /** The unit `file` is analyzed in: its workspace folder's key, or the root the include graph gives it. */
  keyOf(file: string): string {
    const folder = this.folderOf(file);
    return folder === undefined ? this.deps.graph.rootFor(file) : FOLDER_KEY + folder;
  }

  /** The name `file` has in its unit: the one `check` reports it under (a link's target when that sorts first). */
  nameOf(file: string): string {
    const folder = this.folderOf(file);
    return folder === undefined ? file : (this.filesOf(folder).aliases.get(file) ?? file);
  }

  /** The paths a folder's analysis is given (those over maxFileSize among them). */
  pathsOf(folder: string): readonly string[] {
    return this.filesOf(folder).files;
  }

  /** What analyze() is given for the unit: the folder's documents, or the root file alone (undefined: unreadable). */
  documentsOf(key: string): SourceDocument[] | undefined {
    const folder = folderOfUnit(key);
    if (folder === undefined) {
      const text = this.deps.host.readFile(key);
      return text === undefined ? undefined : [{ path: key, text }];
    }
    const { files, realPaths, aliases } = this.filesOf(folder);
    // Open texts by the name kept: a document open under that name wins over one open under another (a link).
    const openTexts = new Map<string, string>();
    for (const document of this.deps.documents.all()) {
      const name = aliases.get(document.path) ?? document.path;
      if (name === document.path || !openTexts.has(name)) openTexts.set(name, document.text);
    }
    const documents: SourceDocument[] = [];
    for (const file of files) {
      const text = openTexts.get(file) ?? this.closedText(file);
      if (text === undefined || text.length > this.deps.maxFileSize(file)) continue;
      const realPath = realPaths.get(file);
      documents.push(realPath === undefined ? { path: file, text } : { path: file, text, realPath });
    }
    return documents;
  }

  /** The deepest workspace folder holding `file` when it is analyzed as a whole folder. */
  private folderOf(file: string): string | undefined {
    if (!this.deps.disk) return undefined;
    const folder = deepestFolder(file, this.deps.index.folders);
    if (folder === undefined || this.filesOf(folder).over) return undefined;
    return folder;
  }

  private filesOf(folder: string): FolderFiles {
    let files = this.folders.get(folder);
    if (!files) {
      files = this.collect(folder);
      this.folders.set(folder, files);
    }
    return files;
  }

  private collect(folder: string): FolderFiles {
    const { index, documents } = this.deps;
    const own = (file: string) => deepestFolder(file, index.folders) === folder;
    const walked = index.list().filter(own);
    const inFolder = (document: OpenDocument) => isFileUri(document.uri) && !document.isTooLarge && isUnder(document.path, folder);
    const open = documents.all().filter((document) => inFolder(document) && own(document.path)).map((document) => document.path);
    const unique = uniqueByRealPath([...walked, ...open]);
    let bytes = 0;
    for (const file of unique.files) bytes += sizeOf(file);
    const tooMany = unique.files.length > WORKSPACE_DIAGNOSTICS_MAX_FILES;
    const over = index.truncated || tooMany || bytes > FOLDER_ANALYSIS_MAX_BYTES;
    if (over && !this.told.has(folder)) {
      this.told.add(folder);
      this.deps.log(
        `${folder}: ${unique.files.length} nginx file(s), ${bytes} bytes, over the bound of ` +
          `${WORKSPACE_DIAGNOSTICS_MAX_FILES} files or ${FOLDER_ANALYSIS_MAX_BYTES} bytes: each file is analyzed with ` +
          'what it includes, not the folder as "check ." ' +
          'analyzes it (a name defined in another file of the folder is not seen)',
      );
    }
    return { ...unique, over };
  }
}

function stampOf(file: string): string | undefined {
  try {
    const stats = statSync(file);
    return stats.isFile() ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
