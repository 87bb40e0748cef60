// The command `nginx-keepalive.fixAllInWorkspace`: every fix, in every nginx file of the workspace folders (open
// documents with their unsaved texts), sent to the client as one workspace/applyEdit. Each folder's files are fixed
// together with that folder's settings (its `.nginx-keepalive.json`, its editor settings), as one CLI run per folder
// would; a file belongs to the deepest folder holding it. Answers how many files changed and how many fixes that took
// (`{ files, fixes }`), for the client's summary.
//
// Cancelled, it stops before the edit is sent (a cancellation that arrived while the fixes were computed is read
// first); once the edit is sent, the answer is what it did, even if a cancellation comes in while the client applies it.
import type { CancellationToken, WorkspaceEdit } from 'vscode-languageserver/node.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { FileIdentities } from '../model/file-identity.js';
import { createReadScope } from '../model/read-scope.js';
import type { OpenDocuments } from './documents.js';
import { fixFilesCounted } from './fix-document.js';
import { cancelledError, Done } from './guard.js';
import { deepestFolder, isFileUri } from './paths.js';
import type { FileEdits } from './workspace-edit.js';
import type { WorkspaceEditBuilder } from './workspace-edit.js';
import type { WorkspaceIndex } from './workspace-index.js';

export const FIX_ALL_IN_WORKSPACE_COMMAND = 'nginx-keepalive.fixAllInWorkspace';
export const FIX_ALL_IN_WORKSPACE_LABEL = 'Fix all nginx-keepalive problems in the workspace';

export interface WorkspaceFixContext {
  documents: OpenDocuments;
  index: WorkspaceIndex;
  host: FileHost;
  edits: WorkspaceEditBuilder;
  /** The options of a folder's files (undefined: no folders, the open documents alone). */
  analyzeOptionsFor(folder: string | undefined): AnalyzeOptions;
  /** nginxKeepalive.maxFileSize of the file's folder. */
  maxFileSize(file: string): number;
  applyEdit(edit: WorkspaceEdit): Promise<boolean>;
}

/** What one fix-all run changed: zero and zero when nothing applied (or the edit was refused). */
export interface WorkspaceFixSummary {
  files: number;
  fixes: number;
}

/**
 * Two turns of the event loop, so that input which arrived while the fixes were computed (a $/cancelRequest, which
 * the connection applies to the token as it reads it) has been read: the second turn follows a poll for input.
 */
const readPendingMessages = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

export async function fixAllInWorkspace(
  context: WorkspaceFixContext,
  token: CancellationToken,
): Promise<WorkspaceFixSummary | Done<WorkspaceFixSummary>> {
  const { documents, index, host } = context;
  const openFiles = documents.all().filter((document) => isFileUri(document.uri)).map((document) => document.path);
  const folders = index.folders;
  // Without folders the open documents are one group; with folders, a file outside them is neither read nor fixed.
  const groups = new Map<string | undefined, SourceDocument[]>();
  for (const file of onePathPerFile([...index.list(), ...openFiles], new Set(openFiles))) {
    const folder = deepestFolder(file, folders);
    if (folders.length > 0 && folder === undefined) continue;
    const text = host.readFile(file);
    if (text === undefined || text.length > context.maxFileSize(file)) continue;
    const group = groups.get(folder) ?? [];
    group.push({ path: file, text });
    groups.set(folder, group);
  }
  // Only inside the workspace folders (or, without folders, the open documents): never a file elsewhere on disk.
  const scope = folders.length > 0 ? createReadScope([...folders]) : createReadScope(openFiles);
  const files: FileEdits[] = [];
  let applied = 0;
  for (const [folder, sources] of groups) {
    if (token.isCancellationRequested) throw cancelledError();
    // A folder's run edits its own files only: a nested folder's are fixed by that folder's run, with its settings.
    const canEdit = (file: string) => scope.allows(file) && deepestFolder(file, folders) === folder;
    const fixed = await fixFilesCounted(sources, context.analyzeOptionsFor(folder), canEdit);
    for (const file of fixed.files) files.push(file);
    applied += fixed.applied;
  }
  const edit = files.length === 0 ? undefined : context.edits.build(files);
  // A document edited while the fixes were computed: its edit would be stale; the user can run the command again.
  const none: WorkspaceFixSummary = { files: 0, fixes: 0 };
  await readPendingMessages();
  if (token.isCancellationRequested) throw cancelledError();
  if (!edit) return none;
  return new Done((await context.applyEdit(edit)) ? { files: files.length, fixes: applied } : none);
}

/**
 * One path per real file (model/file-identity.ts), in the order first listed. The index lists a sites-enabled link
 * and its sites-available target both; fixed under both names, the file got two edits, which an editor keeping one
 * buffer per real file (Neovim) applied one after the other. An open document's path is preferred: its unsaved text
 * is the one to fix, and the client knows the file by that URI and version.
 */
export function onePathPerFile(paths: readonly string[], open: ReadonlySet<string>): string[] {
  const identities = new FileIdentities();
  const chosen = new Map<string, string>();
  for (const file of paths) {
    const identity = identities.of(file);
    const taken = chosen.get(identity);
    if (taken === undefined || (!open.has(taken) && open.has(file))) chosen.set(identity, file);
  }
  return [...chosen.values()];
}
