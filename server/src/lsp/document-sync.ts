// The text document notifications: a document opened, changed or closed goes to the open documents, is (re)analyzed,
// and the diagnostics' delivery hears of it. Without a disk (the web worker) the open documents are the only files,
// so one opening or closing may change what another's include reaches: every document is analyzed again.
import type {
  Connection,
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from './protocol.js';
import type { AnalysisService } from './analysis-service.js';
import type { DiagnosticDelivery } from './diagnostic-delivery.js';
import type { OpenDocuments } from './documents.js';
import { guardNotification, type ErrorLog } from './guard.js';

export interface DocumentSyncDeps {
  documents: OpenDocuments;
  analyses: AnalysisService;
  delivery: DiagnosticDelivery;
  /** False in a web worker: the open documents are the only files. */
  disk: boolean;
}

/** `deps` is asked at each notification: the analyses and the delivery exist only once the server is initialized. */
export function registerDocumentSync(connection: Connection, log: ErrorLog, deps: () => DocumentSyncDeps): void {
  connection.onDidOpenTextDocument(
    guardNotification(log, 'didOpen', ({ textDocument }: DidOpenTextDocumentParams) => {
      const { documents, analyses, delivery, disk } = deps();
      const document = documents.open(textDocument.uri, textDocument.version, textDocument.text);
      analyses.opened(document);
      if (!disk) analyses.everythingChanged();
      delivery.opened(document);
    }),
  );
  connection.onDidChangeTextDocument(
    guardNotification(log, 'didChange', ({ textDocument, contentChanges }: DidChangeTextDocumentParams) => {
      const { documents, analyses, delivery } = deps();
      const document = documents.change(textDocument.uri, contentChanges, textDocument.version);
      if (document) {
        analyses.changed(document);
        delivery.workspaceChanged();
      } else connection.console.log(`didChange for ${textDocument.uri}, which is not open: ignored`);
    }),
  );
  connection.onDidCloseTextDocument(
    guardNotification(log, 'didClose', ({ textDocument }: DidCloseTextDocumentParams) => {
      const { documents, analyses, delivery, disk } = deps();
      const document = documents.close(textDocument.uri);
      if (document) analyses.closed(document);
      if (document && !disk) analyses.everythingChanged();
      delivery.closed(textDocument.uri);
    }),
  );
}
