// Edits computed from a snapshot, as a WorkspaceEdit. Each file's edit is pinned to the text it was computed for:
// an open document's edit carries that document's version (a client rejects it once the text moved on), a closed
// file's carries null. An edit whose open document no longer has that text is not offered at all.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TextDocumentEdit, type TextEdit, type WorkspaceEdit } from './protocol.js';
import { FileIdentities } from '../model/file-identity.js';
import { rangeOf } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { uriOfPath } from './paths.js';

export interface OffsetEdit {
  startOffset: number;
  endOffset: number;
  newText: string;
}

export interface FileEdits {
  /** Absolute path. */
  path: string;
  /** The text the offsets refer to. */
  text: string;
  edits: OffsetEdit[];
}

export class WorkspaceEditBuilder {
  constructor(
    private readonly documents: OpenDocuments,
    /** Whether the client takes `documentChanges` (versioned edits); otherwise plain `changes`. */
    private readonly documentChanges: boolean,
  ) {}

  /**
   * Undefined when an open document's text is no longer the one the edits were computed for. Two entries for one
   * real file (a link and its target) would each be applied to the one buffer an editor keeps for it, so only the
   * first is kept; the fixes compute one per real file, this is the last line of defence.
   */
  build(files: readonly FileEdits[]): WorkspaceEdit | undefined {
    const changes: TextDocumentEdit[] = [];
    const identities = new FileIdentities();
    const seen = new Set<string>();
    for (const file of files) {
      if (file.edits.length === 0) continue;
      const identity = identities.of(file.path);
      if (seen.has(identity)) continue;
      seen.add(identity);
      // A fix computed under the name a folder keeps (a link's target) edits the buffer open under the other name.
      const open = this.documents.atPath(file.path) ?? this.documents.all().find((document) => identities.of(document.path) === identity);
      if (open && open.text !== file.text) return undefined;
      const uri = open?.uri ?? uriOfPath(file.path);
      const document = open?.textDocument ?? TextDocument.create(uri, 'nginx', 0, file.text);
      const edits: TextEdit[] = file.edits.map((edit) => ({
        range: rangeOf(document, edit.startOffset, edit.endOffset),
        newText: edit.newText,
      }));
      changes.push(TextDocumentEdit.create({ uri, version: open ? open.version : null }, edits));
    }
    if (this.documentChanges) return { documentChanges: changes };
    return { changes: Object.fromEntries(changes.map((change) => [change.textDocument.uri, change.edits as TextEdit[]])) };
  }
}

/** Groups edits by file (absolute path), with each file's text looked up by `textOf`; undefined if one is unknown. */
export function groupEdits(
  edits: ReadonlyArray<OffsetEdit & { file: string }>,
  textOf: (file: string) => string | undefined,
  resolve: (file: string) => string,
): FileEdits[] | undefined {
  const byFile = new Map<string, FileEdits>();
  for (const edit of edits) {
    const file = resolve(edit.file);
    let group = byFile.get(file);
    if (!group) {
      const text = textOf(file);
      if (text === undefined) return undefined;
      group = { path: file, text, edits: [] };
      byFile.set(file, group);
    }
    group.edits.push({ startOffset: edit.startOffset, endOffset: edit.endOffset, newText: edit.newText });
  }
  return [...byFile.values()];
}
