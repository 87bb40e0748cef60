// The language server: LSP messages in, calls to the headless core out. Everything here translates; judgement lives
// in analyze() and fixAll(). Handlers are guarded (guard.ts): an exception is logged and answered, never fatal.
import {
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MessageType,
  RequestType0,
  ShowMessageNotification,
  type Connection,
  type DidChangeConfigurationParams,
  type DidChangeWatchedFilesParams,
  type ExecuteCommandParams,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
  type WorkspaceFoldersChangeEvent,
} from './protocol.js';
import path from 'node:path';
import { VERSION } from '../engine/version.js';
import { CONFIG_FILE_NAME } from '../engine/config-file.js';
import { createFsHost } from '../util/fs-host.js';
import { DirectoryListings } from '../util/directory-listings.js';
import type { ActivityListener, AnalysisService } from './analysis-service.js';
import { readClientFeatures, type ClientFeatures } from './client-capabilities.js';
import { codeActions, resolveFixAll, type CodeActionContext } from './code-actions.js';
import { registerDiagnosticRequests, type DiagnosticDelivery } from './diagnostic-delivery.js';
import { Feedback } from './feedback.js';
import { OpenDocuments, openDocumentsHost, overlayHost } from './documents.js';
import { SETTINGS_SECTION } from './editor-settings.js';
import { readFolderSettings } from './folder-settings.js';
import {
  FIX_ALL_IN_WORKSPACE_COMMAND,
  FIX_ALL_IN_WORKSPACE_LABEL,
  fixAllInWorkspace,
  type WorkspaceFixContext,
} from './fix-workspace-command.js';
import { GLOB_CACHE_MAX_AGE_MS, GlobCache } from './glob-cache.js';
import { describeError, guardNotification, guardRequest } from './guard.js';
import { registerLanguageFeatures } from './language-features.js';
import { registerFormatting } from './formatting.js';
import { pathOfUri } from './paths.js';
import { knownRuleIds, SettingsStore } from './settings-store.js';
import { EffectiveSettingsLog, effectiveSettingsLines } from './settings-log.js';
import { applyFileEvents, watchers } from './watched-files.js';
import type { WorkspaceEditBuilder } from './workspace-edit.js';
import type { WorkspaceDiagnostics } from './workspace-diagnostics.js';
import { serverCapabilities, startServices } from './server-services.js';
import { registerDocumentSync } from './document-sync.js';
import { installMessageEncoding } from './message-encoding.js';
import { serverStats, STATS_REQUEST, type ServerStats } from './server-stats.js';
import { MAX_REMEMBERED_ESCAPES, WorkspaceIndex } from './workspace-index.js';

function foldersOf(params: InitializeParams): string[] {
  const folders: WorkspaceFolder[] = params.workspaceFolders ?? [];
  if (folders.length > 0) return folders.map((folder) => pathOfUri(folder.uri));
  return params.rootUri ? [pathOfUri(params.rootUri)] : [];
}

class LanguageServer {
  private readonly documents: OpenDocuments;
  private readonly settings: SettingsStore;
  private readonly index = new WorkspaceIndex();
  private readonly host;
  /** Include globs, expanded once per change on disk the server hears of (see glob-cache.ts). */
  private readonly listings = new DirectoryListings(GLOB_CACHE_MAX_AGE_MS);
  private readonly globs = new GlobCache(createFsHost({ listings: this.listings }), GLOB_CACHE_MAX_AGE_MS, undefined, this.listings);
  private features!: ClientFeatures;
  private analyses!: AnalysisService;
  private edits!: WorkspaceEditBuilder;
  private workspaceDiagnostics!: WorkspaceDiagnostics;
  private delivery!: DiagnosticDelivery;
  /** The code lens, the status and rule documentation requests, and the refreshes analyses make due (feedback.ts). */
  private feedback!: Feedback;
  private readonly settingsLog: EffectiveSettingsLog;
  private folders: string[] = [];
  /** Settings given without workspace/configuration: initializationOptions, then didChangeConfiguration pushes. */
  private pushedSettings: unknown;
  private markReady!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly connection: Connection,
    /** False in a web worker (lsp/browser-main.ts): the open documents are the only files, no folder is scanned. */
    private readonly disk = true,
    /** Told when analyses are due and done: node's idle collection (lsp/main.ts); none in a web worker. */
    private readonly activity?: ActivityListener,
  ) {
    // window/showMessage (a notification): nothing to wait for, and no answer that could fail.
    this.settings = new SettingsStore((message) =>
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }),
    );
    this.documents = new OpenDocuments((file) => this.settings.editorFor(file).maxFileSize);
    this.host = disk ? overlayHost(this.documents, this.globs.host) : openDocumentsHost(this.documents);
    this.settingsLog = new EffectiveSettingsLog((line) => connection.console.info(line));
  }

  listen(): void {
    const { connection } = this;
    const log = { error: (message: string) => connection.console.error(message) };
    // An initialize that throws is answered with an error by the library; nothing else is running yet.
    connection.onInitialize((params) => this.initialize(params));
    connection.onInitialized(guardNotification(log, 'initialized', () => this.initialized()));
    registerDocumentSync(connection, log, () => ({ documents: this.documents, analyses: this.analyses, delivery: this.delivery, disk: this.disk }));
    connection.onDidChangeConfiguration(
      guardNotification(log, 'didChangeConfiguration', async ({ settings }: DidChangeConfigurationParams) => {
        if (!this.features.pullsConfiguration) this.pushedSettings = (settings as Record<string, unknown> | null)?.[SETTINGS_SECTION];
        await this.loadSettings();
        this.globs.clear();
        this.analyses.everythingChanged();
        this.delivery.workspaceChanged();
      }),
    );
    connection.onDidChangeWatchedFiles(
      guardNotification(log, 'didChangeWatchedFiles', ({ changes }: DidChangeWatchedFilesParams) => {
        // A file created or deleted may change what a glob matches; a changed one cannot.
        if (changes.some((change) => change.type !== FileChangeType.Changed)) this.globs.clear();
        const settingsChanged = applyFileEvents(changes, {
          index: this.index,
          documents: this.documents,
          analyses: this.analyses,
          settings: this.settings,
        });
        this.delivery.workspaceChanged();
        if (settingsChanged) this.logEffectiveSettings();
      }),
    );
    connection.onCodeAction(guardRequest(log, 'codeAction', (params) => codeActions(params, this.codeActionContext())));
    connection.onCodeActionResolve(guardRequest(log, 'codeAction/resolve', (action) => resolveFixAll(action, this.codeActionContext())));
    connection.onExecuteCommand(
      guardRequest(log, 'executeCommand', (params: ExecuteCommandParams, token) => {
        if (params.command !== FIX_ALL_IN_WORKSPACE_COMMAND) {
          return this.feedback.execute(params).then((handled) => {
            if (!handled) throw new Error(`unknown command ${params.command}`);
            return null;
          });
        }
        return fixAllInWorkspace(this.workspaceFixContext(), token);
      }),
    );
    // Takes no parameters (the handler gets none, or whatever a client sends): it reads counters, nothing can fail.
    connection.onRequest(new RequestType0<ServerStats, void>(STATS_REQUEST), () =>
      serverStats(this.documents, this.workspaceDiagnostics, this.activity?.collections),
    );
    connection.onShutdown(() => this.documents.disposeAll());
    registerLanguageFeatures(
      connection,
      (uri) => this.analyses.snapshot(uri),
      (uri) => this.documents.get(uri),
      () => this.features.completionSnippets,
    );
    registerFormatting(connection, (uri) => this.documents.get(uri), () => this.folders);
    Feedback.register(connection, log, () => this.feedback);
    registerDiagnosticRequests(connection, log, () => this.delivery);
    connection.listen();
  }

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    this.features = readClientFeatures(params.capabilities);
    this.folders = foldersOf(params);
    const options = params.initializationOptions as Record<string, unknown> | null | undefined;
    this.pushedSettings = options?.[SETTINGS_SECTION] ?? options;
    const services = startServices({
      ...{ connection: this.connection, features: this.features, capabilities: params.capabilities, documents: this.documents },
      ...{ settings: this.settings, index: this.index, host: this.host, disk: this.disk, ready: this.ready, activity: this.activity },
      folders: () => this.folders,
    });
    ({ analyses: this.analyses, workspaceDiagnostics: this.workspaceDiagnostics, feedback: this.feedback } = services);
    ({ delivery: this.delivery, edits: this.edits } = services);
    return { capabilities: serverCapabilities(this.delivery), serverInfo: { name: 'nginx-keepalive', version: VERSION } };
  }

  private async initialized(): Promise<void> {
    const { connection, features } = this;
    // Each step on its own: a client that refuses one registration (eglot 1.9 answers the file watcher's with an
    // error) must still have its settings read, or every analysis would run with the defaults.
    const step = async (what: string, run: () => unknown): Promise<void> => {
      try {
        await run();
      } catch (error) {
        connection.console.error(`initialization: ${what} failed (continuing without it): ${describeError(error)}`);
      }
    };
    // Scanned before anything else is handled: a request (fix all in the workspace) reads the index at once.
    await step('scanning the workspace folders', () => this.scanFolders());
    // The client's answers (the registrations, the settings: three round trips with VS Code, each waited for in turn
    // before) are waited for together.
    const answers: Array<Promise<void>> = [];
    if (features.registersWatchedFiles) {
      answers.push(step('registering file watchers', () => connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: watchers() })));
    }
    if (features.registersConfigurationChanges) {
      answers.push(step('registering for settings changes', () =>
        connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION })));
    }
    answers.push(step('reading the settings', () => this.loadSettings()));
    if (features.workspaceFolderChanges) {
      connection.workspace.onDidChangeWorkspaceFolders(
        guardNotification({ error: (m) => connection.console.error(m) }, 'didChangeWorkspaceFolders', async (event: WorkspaceFoldersChangeEvent) => {
          const removed = new Set(event.removed.map((folder) => pathOfUri(folder.uri)));
          this.folders = [...this.folders.filter((f) => !removed.has(f)), ...event.added.map((f) => pathOfUri(f.uri))];
          this.scanFolders();
          await this.loadSettings();
          this.globs.clear();
          this.analyses.everythingChanged();
          this.delivery.workspaceChanged();
        }),
      );
    }
    await Promise.all(answers);
    // Analyze with whatever was loaded rather than never.
    this.markReady();
    // The first workspace pass (a client that pulls asks for it itself).
    this.delivery.workspaceChanged();
  }

  /** Rescans the workspace folders; a link it did not follow (it leads outside them) is named in the log. */
  private scanFolders(): void {
    if (this.disk) this.index.scan(this.folders);
    // Detection of the nginx version (Dockerfiles, compose files) is per workspace folder.
    this.settings.setWorkspaceFolders(this.folders);
    const escaped = [...this.index.escaped];
    if (escaped.length === 0) return;
    this.connection.console.info(
      `not following ${escaped.length === MAX_REMEMBERED_ESCAPES ? 'at least ' : ''}${escaped.length} symbolic link(s) ` +
        `leading outside the workspace folders (their targets are never read): ${escaped.join(', ')}`,
    );
  }

  /** Each folder's settings, with one workspace/configuration request (lsp/folder-settings.ts). */
  private async loadSettings(): Promise<void> {
    const { pullsConfiguration: pulls } = this.features;
    const request = (items: Array<{ section: string; scopeUri?: string }>) => this.connection.workspace.getConfiguration(items);
    const reading = await readFolderSettings({ pulls, pushed: this.pushedSettings, request }, this.folders, knownRuleIds());
    this.settings.setFolderSettings(reading.window, reading.folders, reading.problems);
    this.logEffectiveSettings();
  }

  private logEffectiveSettings(): void {
    this.settingsLog.update(effectiveSettingsLines(this.settings, this.folders));
  }

  private codeActionContext(): CodeActionContext {
    const { analyses } = this;
    return {
      documents: this.documents,
      snapshot: (uri) => analyses.snapshot(uri),
      edits: this.edits,
      resolvesEdits: this.features.resolvesCodeActionEdits,
      rootFor: (document) => analyses.rootFor(document),
      analyzeOptionsFor: (root) => analyses.analyzeOptionsFor(root),
      documentsOf: (root) => analyses.documentsOf(root),
      nameOf: (document) => analyses.nameOf(document),
    };
  }

  private workspaceFixContext(): WorkspaceFixContext {
    return {
      documents: this.documents,
      index: this.index,
      host: this.host,
      edits: this.edits,
      // As for a file at the top of the folder: that folder's settings file, editor settings and read roots.
      analyzeOptionsFor: (folder) => this.analyses.analyzeOptionsFor(path.join(folder ?? this.folders[0] ?? '/', CONFIG_FILE_NAME)),
      maxFileSize: (file) => this.settings.editorFor(file).maxFileSize,
      applyEdit: async (edit) => (await this.connection.workspace.applyEdit({ label: FIX_ALL_IN_WORKSPACE_LABEL, edit })).applied,
    };
  }
}

/**
 * Starts the server on the transport the command line names (--stdio, --node-ipc, --socket=N), or on the one given.
 * `disk`: false in a web worker, where the open documents are the only files (lsp/browser-main.ts).
 */
export function startLanguageServer(
  given?: Connection,
  { disk = true, activity }: { disk?: boolean; activity?: ActivityListener } = {},
): void {
  if (!given) installMessageEncoding();
  const connection = given ?? createConnection();
  // A promise nobody awaited failing (say, a client answering a request with an error) is logged, not fatal.
  process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${describeError(reason)}`));
  new LanguageServer(connection, disk, activity).listen();
}
