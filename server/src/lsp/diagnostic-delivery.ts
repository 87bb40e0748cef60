// How diagnostics reach the client. A client that pulls (textDocument/diagnostic, as VS Code's does) asks for each
// open document and for the workspace (workspace/diagnostic); every answer carries a resultId naming its content, so
// a file whose diagnostics did not change is answered "unchanged". A workspace request whose answer would be
// "unchanged" for every file is held open until something changes (the LSP's long poll: VS Code asks again two seconds
// after each answer). When an open document's diagnostics change for a reason the client cannot see (a file it
// includes changed on disk, settings), the client is asked to pull again (workspace/diagnostic/refresh).
// A client that does not pull is sent publishDiagnostics: versioned for open documents (as always), and for the
// workspace's other files once after the scan and after each change, only when a file's diagnostics changed.
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type DiagnosticServerCancellationData,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type ServerCapabilities,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from './protocol.js';
import type { AnalysisService } from './analysis-service.js';
import type { ClientFeatures } from './client-capabilities.js';
import { analysisFailedDiagnostic } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { describeError, guardRequest, type ErrorLog } from './guard.js';
import type { OpenDocument } from './open-document.js';
import { pathOfUri, uriOfPath } from './paths.js';
import { sameJson } from './same-json.js';
import { EMPTY_RESULT_ID, resultIdOf, type WorkspaceDiagnostics } from './workspace-diagnostics.js';

export interface DeliveryDeps {
  connection: Connection;
  features: ClientFeatures;
  documents: OpenDocuments;
  analyses: AnalysisService;
  workspace: WorkspaceDiagnostics;
  log: ErrorLog;
}

interface Answer {
  diagnostics: Diagnostic[];
  resultId: string;
}

/** Pushed for a file that was open: its editor diagnostics stand until the workspace's replace them. */
const FROM_OPEN_DOCUMENT = 'open-document';

function report(answer: Answer, previousResultId: string | undefined): DocumentDiagnosticReport {
  return answer.resultId === previousResultId
    ? { kind: DocumentDiagnosticReportKind.Unchanged, resultId: answer.resultId }
    : { kind: DocumentDiagnosticReportKind.Full, resultId: answer.resultId, items: answer.diagnostics };
}

export class DiagnosticDelivery {
  /** Pull: each open document's latest diagnostics, and the resultId the client was last given for it. */
  private readonly latest = new Map<string, Answer & { version: number }>();
  private readonly answered = new Map<string, string>();
  /** Pull: open documents whose textDocument/diagnostic is waiting for their analysis. */
  private readonly pulling = new Map<string, number>();
  private refreshScheduled = false;
  /** Push: what each closed workspace file was last sent (by path); a file missing here was sent nothing. */
  private readonly pushed = new Map<string, string>();
  private passRunning = false;
  private passAgain = false;

  constructor(private readonly deps: DeliveryDeps) {}

  private get pulls(): boolean {
    return this.deps.features.pullsDiagnostics;
  }

  get capabilities(): Partial<ServerCapabilities> {
    return this.pulls ? { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: true } } : {};
  }

  /** An open document's diagnostics for its current version (AnalysisService's publish); a push answers its write. */
  publishOpen(document: OpenDocument, diagnostics: Diagnostic[]): Promise<void> | undefined {
    if (!this.pulls) return this.deps.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    const previous = this.latest.get(document.uri);
    const resultId = previous && sameJson(previous.diagnostics, diagnostics) ? previous.resultId : resultIdOf(diagnostics);
    this.latest.set(document.uri, { version: document.version, diagnostics, resultId });
    if (!this.pulling.has(document.uri) && this.answered.get(document.uri) !== resultId) this.scheduleRefresh();
    return undefined;
  }

  opened(document: OpenDocument): void {
    this.pushed.delete(document.path);
    this.workspaceChanged();
  }

  closed(uri: string): void {
    this.latest.delete(uri);
    this.answered.delete(uri);
    const file = pathOfUri(uri);
    if (!this.pulls) {
      // A workspace file keeps its problems once closed: the next pass replaces them with those of its text on disk.
      if (this.deps.workspace.covers(file)) this.pushed.set(file, FROM_OPEN_DOCUMENT);
      else void this.deps.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
    this.workspaceChanged();
  }

  /** Anything that may change a workspace file's diagnostics happened. */
  workspaceChanged(): void {
    this.deps.workspace.changed();
    if (this.pulls) return;
    if (this.passRunning) this.passAgain = true;
    else void this.runPasses();
  }

  async documentDiagnostic(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const { uri } = params.textDocument;
    const document = this.deps.documents.get(uri);
    if (!document) {
      // Not open (VS Code pulls a document once more as it closes): its workspace diagnostics, else none.
      const file = pathOfUri(uri);
      const answer = this.deps.workspace.covers(file) ? (await this.deps.workspace.compute(token)).get(file) : undefined;
      return report(answer ?? { diagnostics: [], resultId: EMPTY_RESULT_ID }, params.previousResultId);
    }
    this.pulling.set(uri, (this.pulling.get(uri) ?? 0) + 1);
    try {
      await this.deps.analyses.snapshot(uri);
    } catch (error) {
      this.deps.log.error(`analysing ${uri} failed: ${describeError(error)}`);
      const diagnostics = [analysisFailedDiagnostic(error instanceof Error ? error.message : String(error))];
      return report({ diagnostics, resultId: resultIdOf(diagnostics) }, params.previousResultId);
    } finally {
      const waiting = this.pulling.get(uri)! - 1;
      if (waiting === 0) this.pulling.delete(uri);
      else this.pulling.set(uri, waiting);
    }
    const latest = this.latest.get(uri);
    if (this.deps.documents.get(uri) !== document || latest?.version !== document.version) {
      // Edited (or closed) meanwhile: the client asks again for the new version.
      throw new ResponseError(LSPErrorCodes.ServerCancelled, 'the document changed', { retriggerRequest: true });
    }
    this.answered.set(uri, latest.resultId);
    return report(latest, params.previousResultId);
  }

  async workspaceDiagnostic(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    const previous = new Map(params.previousResultIds.map((entry) => [pathOfUri(entry.uri), entry.value] as const));
    for (;;) {
      const generation = this.deps.workspace.generation;
      const results = await this.deps.workspace.compute(token);
      const items: WorkspaceDocumentDiagnosticReport[] = [];
      let news = false;
      for (const [file, answer] of results) {
        if (this.deps.documents.atPath(file)) continue;
        if (previous.get(file) === answer.resultId) {
          items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri: answer.uri, resultId: answer.resultId, version: null });
        } else {
          items.push({ kind: DocumentDiagnosticReportKind.Full, uri: answer.uri, resultId: answer.resultId, items: answer.diagnostics, version: null });
          news = true;
        }
      }
      // Files no longer reported (deleted, set to openFiles, over the bound): cleared.
      for (const [file, resultId] of previous) {
        if (results.has(file) || resultId === EMPTY_RESULT_ID || this.deps.documents.atPath(file)) continue;
        items.push({ kind: DocumentDiagnosticReportKind.Full, uri: uriOfPath(file), resultId: EMPTY_RESULT_ID, items: [], version: null });
        news = true;
      }
      if (news) return { items };
      await this.deps.workspace.waitForChange(generation, token);
    }
  }

  private scheduleRefresh(): void {
    if (this.refreshScheduled || !this.deps.features.refreshesDiagnostics) return;
    this.refreshScheduled = true;
    // Once per turn, however many documents were re-analyzed in it.
    setImmediate(() => {
      this.refreshScheduled = false;
      this.deps.connection.languages.diagnostics.refresh();
    });
  }

  private async runPasses(): Promise<void> {
    this.passRunning = true;
    try {
      do {
        this.passAgain = false;
        await this.pushPass();
      } while (this.passAgain);
    } catch (error) {
      this.deps.log.error(`workspace diagnostics failed: ${describeError(error)}`);
    } finally {
      this.passRunning = false;
    }
  }

  private async pushPass(): Promise<void> {
    const { connection, documents } = this.deps;
    const results = await this.deps.workspace.compute();
    for (const [file, answer] of results) {
      if (documents.atPath(file) || (this.pushed.get(file) ?? EMPTY_RESULT_ID) === answer.resultId) continue;
      void connection.sendDiagnostics({ uri: answer.uri, diagnostics: answer.diagnostics });
      this.pushed.set(file, answer.resultId);
    }
    for (const file of [...this.pushed.keys()]) {
      if (results.has(file) || documents.atPath(file)) continue;
      void connection.sendDiagnostics({ uri: uriOfPath(file), diagnostics: [] });
      this.pushed.delete(file);
    }
  }
}

/** textDocument/diagnostic and workspace/diagnostic, answered by the delivery once the server is initialized. */
export function registerDiagnosticRequests(connection: Connection, log: ErrorLog, delivery: () => DiagnosticDelivery): void {
  // The guard answers errors as ResponseError<void>; these requests' error data (retriggerRequest) is optional.
  type Answer<R> = Promise<R | ResponseError<DiagnosticServerCancellationData>>;
  const document = guardRequest(log, 'textDocument/diagnostic', (params: DocumentDiagnosticParams, token) =>
    delivery().documentDiagnostic(params, token),
  );
  const workspace = guardRequest(log, 'workspace/diagnostic', (params: WorkspaceDiagnosticParams, token) =>
    delivery().workspaceDiagnostic(params, token),
  );
  connection.languages.diagnostics.on((params, token) => document(params, token) as Answer<DocumentDiagnosticReport>);
  connection.languages.diagnostics.onWorkspace((params, token) => workspace(params, token) as Answer<WorkspaceDiagnosticReport>);
}
