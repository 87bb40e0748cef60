// The command `nginx-keepalive.fixAllInWorkspace`: every fix, in every nginx file of the workspace folders (open
// documents with their unsaved texts), sent to the client as one workspace/applyEdit. Answers how many files changed
// and how many fixes that took (`{ files, fixes }`), for the client's summary.
import type { CancellationToken, WorkspaceEdit } from 'vscode-languageserver/node.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { FileIdentities } from '../model/file-identity.js';
import { createReadScope } from '../model/read-scope.js';
import type { OpenDocuments } from './documents.js';
import { fixFilesCounted } from './fix-document.js';
import { cancelledError } from './guard.js';
import { isFileUri } from './paths.js';
import type { WorkspaceEditBuilder } from './workspace-edit.js';
import type { WorkspaceIndex } from './workspace-index.js';

export const FIX_ALL_IN_WORKSPACE_COMMAND = 'nginx-keepalive.fixAllInWorkspace';
export const FIX_ALL_IN_WORKSPACE_LABEL = 'Fix all nginx-keepalive problems in the workspace';

export interface WorkspaceFixContext {
  documents: OpenDocuments;
  index: WorkspaceIndex;
  host: FileHost;
  edits: WorkspaceEditBuilder;
  /** Options of the first workspace folder (one settings file per run, as the CLI). */
  analyzeOptions(): AnalyzeOptions;
  maxFileSize(): number;
  applyEdit(edit: WorkspaceEdit): Promise<boolean>;
}

/** What one fix-all run changed: zero and zero when nothing applied (or the edit was refused). */
export interface WorkspaceFixSummary {
  files: number;
  fixes: number;
}

export async function fixAllInWorkspace(context: WorkspaceFixContext, token: CancellationToken): Promise<WorkspaceFixSummary> {
  const { documents, index, host } = context;
  const openFiles = documents.all().filter((document) => isFileUri(document.uri)).map((document) => document.path);
  const sources: SourceDocument[] = onePathPerFile([...index.list(), ...openFiles], new Set(openFiles)).flatMap((file) => {
    const text = host.readFile(file);
    return text === undefined || text.length > context.maxFileSize() ? [] : [{ path: file, text }];
  });
  // Only inside the workspace folders (or, without folders, the open documents): never a file elsewhere on disk.
  const scope = index.folders.length > 0 ? createReadScope([...index.folders]) : createReadScope(openFiles);
  const { files, applied } = await fixFilesCounted(sources, context.analyzeOptions(), (file) => scope.allows(file));
  if (token.isCancellationRequested) throw cancelledError();
  const edit = files.length === 0 ? undefined : context.edits.build(files);
  // A document edited while the fixes were computed: its edit would be stale; the user can run the command again.
  const none: WorkspaceFixSummary = { files: 0, fixes: 0 };
  if (!edit) return none;
  return (await context.applyEdit(edit)) ? { files: files.length, fixes: applied } : none;
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
