// What the server tells the editor besides diagnostics: the upstream code lens (code-lens.ts), the status the
// editor's status item shows (status.ts), the rules' documentation (rule-documentation.ts), and the refreshes an
// analysis makes due: semantic tokens once a newly opened document has its first model (the client may have asked
// before and kept an empty answer), code lenses when an analysis changed them. server.ts wires it in.
import {
  type ClientCapabilities,
  type Connection,
  type ExecuteCommandParams,
  type ServerCapabilities,
} from './protocol.js';
import type { NginxTarget } from '../engine/nginx-target.js';
import { CodeLensFeature, REVEAL_PASS_COMMAND } from './code-lens.js';
import type { EditorSettings } from './editor-settings.js';
import { guardRequest, type ErrorLog } from './guard.js';
import type { OpenDocument } from './open-document.js';
import { RULE_DOCUMENTATION_REQUEST, RULES_REQUEST, ruleDocumentation, ruleSummaries } from './rule-documentation.js';
import type { DocumentSnapshot, SnapshotProvider } from './snapshot.js';
import { serverStatus, STATUS_REQUEST, type StatusParams } from './status.js';

export interface FeedbackDeps {
  connection: Connection;
  snapshot: SnapshotProvider;
  currentSnapshot(uri: string): DocumentSnapshot | undefined;
  editorFor(file: string): Pick<EditorSettings, 'codeLens'>;
  isOpen(uri: string): boolean;
  openDocuments(): number;
  /** The nginx target `file` is analyzed with (as part of its root when it is open). */
  targetFor(file: string): NginxTarget | undefined;
  folders(): readonly string[];
  filesChecked(): number;
}

export const FEEDBACK_COMMANDS = [REVEAL_PASS_COMMAND];

export const feedbackCapabilities: Partial<ServerCapabilities> = {
  codeLensProvider: { resolveProvider: false },
};

export class Feedback {
  private readonly lenses: CodeLensFeature;
  private readonly semanticTokensRefresh: boolean;
  /** Documents whose first model the client was told about (a reopened document is a new OpenDocument). */
  private readonly coloured = new WeakSet<OpenDocument>();
  private semanticRefreshQueued = false;

  constructor(
    private readonly deps: FeedbackDeps,
    capabilities: ClientCapabilities,
  ) {
    this.semanticTokensRefresh = capabilities.workspace?.semanticTokens?.refreshSupport === true;
    this.lenses = new CodeLensFeature({
      ...deps,
      refreshSupport: capabilities.workspace?.codeLens?.refreshSupport === true,
      showDocumentSupport: capabilities.window?.showDocument?.support === true,
    });
  }

  /** The handlers; registered before the connection listens. */
  static register(connection: Connection, log: ErrorLog, feedback: () => Feedback): void {
    connection.onCodeLens(guardRequest(log, 'codeLens', (params) => feedback().lenses.answer(params.textDocument.uri)));
    connection.onRequest(STATUS_REQUEST, guardRequest(log, STATUS_REQUEST, (params: StatusParams | null) => feedback().status(params)));
    // Takes no parameters: the handler gets none, null or whatever a client sends, and reads none of it.
    connection.onRequest(RULES_REQUEST, () => ruleSummaries());
    connection.onRequest(RULE_DOCUMENTATION_REQUEST, guardRequest(log, RULE_DOCUMENTATION_REQUEST, (params: unknown) => ruleDocumentation(params)));
  }

  /** After diagnostics were published for an analysis of `document`. */
  analyzed(document: OpenDocument): void {
    if (!this.coloured.has(document) && this.deps.currentSnapshot(document.uri)) {
      this.coloured.add(document);
      this.queueSemanticRefresh();
    }
    this.lenses.analyzed(document.uri);
  }

  /** Runs a command of FEEDBACK_COMMANDS; false for any other. */
  execute(params: ExecuteCommandParams): Promise<boolean> {
    return this.lenses.execute(params);
  }

  private status(params: StatusParams | null) {
    return serverStatus(params, this.deps);
  }

  private queueSemanticRefresh(): void {
    if (!this.semanticTokensRefresh || this.semanticRefreshQueued) return;
    this.semanticRefreshQueued = true;
    setImmediate(() => {
      this.semanticRefreshQueued = false;
      // A client that fails the refresh keeps its tokens; it asks again on the next edit.
      void this.deps.connection.sendRequest('workspace/semanticTokens/refresh').catch(() => undefined);
    });
  }
}
