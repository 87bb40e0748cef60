// The services one server session runs on, made at initialize (server.ts) once the client's capabilities are known:
// the analyses of open documents, the workspace pass, the feedback requests, the diagnostics' delivery and the
// workspace edits; and the capabilities the server answers initialize with.
import { CodeActionKind, TextDocumentSyncKind, type ClientCapabilities, type Connection, type InitializeResult } from './protocol.js';
import { lazyNginxParser } from '../parser/loader.js';
import type { FileHost } from '../util/types.js';
import { AnalysisService, type ActivityListener } from './analysis-service.js';
import { AnalysisUnits } from './analysis-units.js';
import type { ClientFeatures } from './client-capabilities.js';
import { FIX_ALL_KIND } from './code-actions.js';
import { DiagnosticDelivery } from './diagnostic-delivery.js';
import type { OpenDocuments } from './documents.js';
import { Feedback, FEEDBACK_COMMANDS, feedbackCapabilities } from './feedback.js';
import { FIX_ALL_IN_WORKSPACE_COMMAND } from './fix-workspace-command.js';
import { IncludeGraph } from './include-graph.js';
import { languageFeatureCapabilities } from './language-features.js';
import { ModelStore } from './model-store.js';
import type { SettingsStore } from './settings-store.js';
import { WorkspaceDiagnostics } from './workspace-diagnostics.js';
import { WorkspaceEditBuilder } from './workspace-edit.js';
import type { WorkspaceIndex } from './workspace-index.js';

export interface SessionInputs {
  connection: Connection;
  features: ClientFeatures;
  capabilities: ClientCapabilities;
  documents: OpenDocuments;
  settings: SettingsStore;
  index: WorkspaceIndex;
  host: FileHost;
  /** False in a web worker: the open documents are the only files. */
  disk: boolean;
  /** Settles once the settings are read (initialized): no analysis runs before. */
  ready: Promise<void>;
  activity: ActivityListener | undefined;
  folders: () => string[];
}

export interface SessionServices {
  analyses: AnalysisService;
  workspaceDiagnostics: WorkspaceDiagnostics;
  /** The code lens, the status and rule documentation requests, and the refreshes analyses make due (feedback.ts). */
  feedback: Feedback;
  delivery: DiagnosticDelivery;
  edits: WorkspaceEditBuilder;
}

export function startServices(inputs: SessionInputs): SessionServices {
  const { connection, features, documents, settings, index, host, disk, ready } = inputs;
  const console = connection.console;
  // Loaded when a document first needs it (a template, text the reader declines): most never do.
  const parser = lazyNginxParser();
  const maxFileSize = (file: string) => settings.editorFor(file).maxFileSize;
  const models = new ModelStore(documents, parser, maxFileSize);
  const graph = new IncludeGraph();
  const units = new AnalysisUnits({ index, documents, host, disk, graph, maxFileSize, log: (message) => console.info(message) });
  // An analysis publishes through the delivery and tells the feedback, both made after it (they read it).
  let delivery: DiagnosticDelivery | undefined;
  let feedback: Feedback | undefined;
  const analyses = new AnalysisService({
    ...{ documents, models, host, settings, index, graph, units, parser, ready },
    publish: (document, diagnostics) => {
      const sent = delivery!.publishOpen(document, diagnostics);
      feedback!.analyzed(document);
      return sent;
    },
    logError: (message) => console.error(message),
    activity: inputs.activity,
  });
  const workspace = new WorkspaceDiagnostics({
    ...{ index, documents, analyses, settings, host, ready },
    log: (message) => console.info(message),
    logError: (message) => console.error(message),
  });
  feedback = new Feedback(
    {
      connection,
      snapshot: (uri) => analyses.snapshot(uri),
      currentSnapshot: (uri) => analyses.currentSnapshot(uri),
      editorFor: (file) => settings.editorFor(file),
      isOpen: (uri) => documents.get(uri) !== undefined,
      openDocuments: () => documents.all().length,
      targetFor: (file) => {
        const open = documents.atPath(file);
        return analyses.analyzeOptionsFor(open ? analyses.rootFor(open) : file).nginxTarget;
      },
      folders: inputs.folders,
      // Open documents' analyses and the workspace pass, each file once.
      filesChecked: () => new Set([...analyses.checkedFiles(), ...workspace.checkedFiles()]).size,
    },
    inputs.capabilities,
  );
  const log = { error: (message: string) => console.error(message) };
  delivery = new DiagnosticDelivery({ connection, features, documents, analyses, workspace, log });
  const edits = new WorkspaceEditBuilder(documents, features.documentChanges);
  return { analyses, workspaceDiagnostics: workspace, feedback, delivery, edits };
}

export function serverCapabilities(delivery: DiagnosticDelivery): InitializeResult['capabilities'] {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
    executeCommandProvider: { commands: [FIX_ALL_IN_WORKSPACE_COMMAND, ...FEEDBACK_COMMANDS] },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    ...languageFeatureCapabilities,
    ...feedbackCapabilities,
    ...delivery.capabilities,
  };
}
