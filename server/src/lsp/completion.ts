// Completion on the wire: textDocument/completion answered by features/completion.ts from the document's snapshot,
// each item a text edit over the word typed so far (a snippet when the client takes them), its documentation from
// the directive table filled in by completionItem/resolve (a location offers hundreds of directives).
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  type CompletionItem,
  type CompletionList,
  type Connection,
  type ServerCapabilities,
} from './protocol.js';
import { completionDocumentation, completionsAt, type CandidateKind, type CandidateReference, type CompletionCandidate } from '../features/completion.js';
import { lineIndexOf } from '../features/positions.js';
import type { DocumentSnapshot, SnapshotProvider } from './snapshot.js';

/** `$` starts a variable; ` ` after a flag or pass directive offers its words or upstreams; `/` ends `http://`. */
export const completionCapability: Pick<ServerCapabilities, 'completionProvider'> = {
  completionProvider: { triggerCharacters: ['$', ' ', '/'], resolveProvider: true },
};

const KINDS: Record<CandidateKind, CompletionItemKind> = {
  directive: CompletionItemKind.Property,
  block: CompletionItemKind.Module,
  value: CompletionItemKind.EnumMember,
  variable: CompletionItemKind.Variable,
  upstream: CompletionItemKind.Reference,
  snippet: CompletionItemKind.Snippet,
};

interface ItemData {
  uri: string;
  reference: CandidateReference;
}

function toItem(snapshot: DocumentSnapshot, candidate: CompletionCandidate, snippets: boolean): CompletionItem {
  const range = lineIndexOf(snapshot.file).rangeOf(candidate.span);
  const snippet = snippets && candidate.snippet !== undefined;
  const item: CompletionItem = {
    label: candidate.label,
    kind: KINDS[candidate.kind],
    detail: candidate.detail,
    sortText: candidate.sortText,
    filterText: candidate.label,
    textEdit: { range, newText: snippet ? candidate.snippet! : candidate.text },
    insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
  };
  if (candidate.deprecated) item.tags = [CompletionItemTag.Deprecated];
  if (candidate.documentation) item.documentation = { kind: 'markdown', value: candidate.documentation };
  else if (candidate.reference) item.data = { uri: snapshot.uri, reference: candidate.reference } satisfies ItemData;
  return item;
}

function isItemData(data: unknown): data is ItemData {
  if (typeof data !== 'object' || data === null) return false;
  const { uri, reference } = data as Partial<ItemData>;
  return typeof uri === 'string' && typeof reference === 'object' && reference !== null;
}

/**
 * Registers completion. `snippets` tells whether the client takes snippet syntax (read once it has initialized);
 * a failure is logged and answers an empty list, as the other features do.
 */
export function registerCompletion(connection: Connection, snapshots: SnapshotProvider, snippets: () => boolean): void {
  connection.onCompletion(async (params, token): Promise<CompletionList | null> => {
    const uri = params.textDocument.uri;
    try {
      const snapshot = await snapshots(uri);
      if (!snapshot || token.isCancellationRequested) return null;
      const offset = lineIndexOf(snapshot.file).offsetAt(params.position);
      const takesSnippets = snippets();
      const trigger = params.context?.triggerCharacter;
      const items = completionsAt(snapshot, offset, trigger).map((candidate) => toItem(snapshot, candidate, takesSnippets));
      return { isIncomplete: false, items };
    } catch (error) {
      connection.console.error(`completion failed for ${uri}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return null;
    }
  });

  connection.onCompletionResolve(async (item): Promise<CompletionItem> => {
    if (!isItemData(item.data) || item.documentation) return item;
    try {
      const snapshot = await snapshots(item.data.uri);
      const value = completionDocumentation(item.data.reference, snapshot?.options ?? {});
      return value ? { ...item, documentation: { kind: 'markdown', value } } : item;
    } catch (error) {
      connection.console.error(`completionItem/resolve failed: ${error instanceof Error ? error.message : String(error)}`);
      return item;
    }
  });
}
