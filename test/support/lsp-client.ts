// A real LSP client for tests: spawns the language server as its own process (`node dist/server.js --stdio`, or
// `node dist/cli.js lsp --stdio`, or the single executable's `lsp --stdio`) and speaks JSON-RPC to it over the
// process's real stdin/stdout.
//
//   const client = await LspClient.start({ workspace: dir, settings: { rules: { include: 'off' } } });
//   const doc = client.open(path.join(dir, 'nginx.conf'), text);      // didOpen; returns { uri, version }
//   const published = await client.diagnosticsFor(doc.uri, doc.version); // waits for that version's publish
//   client.change(doc.uri, [{ range, text }]);                           // didChange (version + 1); full text: { text }
//   await client.request('textDocument/codeAction', params);             // any request; rejects with the error
//   client.setSettings({ ... });                                         // answers later workspace/configuration
//                                                                         // requests, sends didChangeConfiguration
//   LspClient.start({ folders: [a, b], folderSettings: { [a]: {...} } })  // multi-root; answers per scopeUri
//   LspClient.start({ pullDiagnostics: true })                            // advertises textDocument.diagnostic
//   await client.waitForDiagnostics(uri, (params) => ...);              // first publish (the latest one received
//                                                                         // included) for which the predicate holds
//   await client.stop();                                                  // shutdown + exit, then the process ends
//
// Recorded along the way: `publications` (every publishDiagnostics), `messages` (window/showMessage), `logs`
// (window/logMessage), `registrations` (client/registerCapability), `appliedEdits` (workspace/applyEdit requests,
// accepted unless `answerApplyEdit` says otherwise), `stderr`. `applyEdits(text, edits)` applies LSP text edits to a string and `editsFor(edit, uri)`
// picks one document's edits out of a WorkspaceEdit, for checking code actions by their result.
// Call `LspClient.stopAll()` in afterEach: it stops (and if need be kills) every client a test started.
// Nothing here sleeps: waits end on the notification or response itself; the vitest timeout is the only bound.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type CancellationToken,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node.js';
import type {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditResult,
  ConfigurationParams,
  InitializeResult,
  LogMessageParams,
  PublishDiagnosticsParams,
  Registration,
  RegistrationParams,
  ShowMessageParams,
  TextDocumentContentChangeEvent,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StartOptions {
  /** The workspace folder (absolute); none when omitted. */
  workspace?: string;
  /** What workspace/configuration answers for section "nginxKeepalive". */
  settings?: Record<string, unknown>;
  /** More workspace folders (absolute; after `workspace` if given): a multi-root workspace. */
  folders?: string[];
  /** What workspace/configuration answers for an item whose scopeUri is in this folder (absolute), instead of `settings`. */
  folderSettings?: Record<string, Record<string, unknown>>;
  /** Advertise pull diagnostics (textDocument.diagnostic, with workspace/diagnostic/refresh support). */
  pullDiagnostics?: boolean;
  /** `server`: node dist/server.js --stdio (default); `cli`: node dist/cli.js lsp --stdio. */
  entry?: 'server' | 'cli';
  /** Advertise codeAction/resolve support for `edit` (default false: the server then fills edits in directly). */
  resolveCodeActionEdits?: boolean;
  /** Start this program with `lsp --stdio` instead of node (the single executable of `npm run build:binary`). */
  executable?: string;
  /** The server's working directory (default: the repository). */
  cwd?: string;
  /** The server's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Answer every client/registerCapability with an error, as eglot 1.9 does for file watchers it cannot set up. */
  refuseRegistrations?: boolean;
  /** Advertise snippet completion items (textDocument.completion.completionItem.snippetSupport). */
  completionSnippets?: boolean;
  /** More client capabilities, merged into `workspace` and `window` (refreshSupport, showDocument). */
  capabilities?: { workspace?: Record<string, unknown>; window?: Record<string, unknown> };
}

type Waiter = { uri: string; predicate: (params: PublishDiagnosticsParams) => boolean; resolve: (params: PublishDiagnosticsParams) => void };

export const uriOf = (file: string): string => pathToFileURL(file).href;

/** `text` with LSP edits applied (ranges refer to `text` as given, as in a TextDocumentEdit). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'nginx', 0, text), [...edits]);
}

/** The edits a WorkspaceEdit makes to one URI, from `documentChanges` or `changes`. */
export function editsFor(edit: WorkspaceEdit | undefined, uri: string): TextEdit[] {
  if (!edit) return [];
  const fromDocumentChanges = (edit.documentChanges ?? []).flatMap((change) =>
    'textDocument' in change && change.textDocument.uri === uri ? (change.edits as TextEdit[]) : [],
  );
  return [...fromDocumentChanges, ...(edit.changes?.[uri] ?? [])];
}

export class LspClient {
  private static running = new Set<LspClient>();
  readonly messages: ShowMessageParams[] = [];
  readonly logs: LogMessageParams[] = [];
  readonly registrations: Registration[] = [];
  readonly appliedEdits: ApplyWorkspaceEditParams[] = [];
  /** How workspace/applyEdit is answered (default: applied); a test may hold the answer, or do something first. */
  answerApplyEdit: (params: ApplyWorkspaceEditParams) => ApplyWorkspaceEditResult | Promise<ApplyWorkspaceEditResult> = () => ({ applied: true });
  /** Every workspace/configuration request's items, in order. */
  readonly configurationRequests: ConfigurationParams[] = [];
  /** How many workspace/diagnostic/refresh requests the server sent. */
  diagnosticRefreshes = 0;
  private folderSettings: Record<string, Record<string, unknown>> = {};
  /** Every publishDiagnostics received, in order. */
  readonly publications: PublishDiagnosticsParams[] = [];
  stderr = '';
  initializeResult!: InitializeResult;
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private readonly versions = new Map<string, number>();
  private waiters: Waiter[] = [];
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly connection: MessageConnection,
    private settings: Record<string, unknown>,
    refuseRegistrations = false,
  ) {
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
    process.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => this.received(params));
    connection.onNotification('window/showMessage', (params: ShowMessageParams) => this.messages.push(params));
    connection.onNotification('window/logMessage', (params: LogMessageParams) => this.logs.push(params));
    connection.onRequest('workspace/configuration', (params: ConfigurationParams) => {
      this.configurationRequests.push(params);
      return params.items.map((item) => (item.section === 'nginxKeepalive' ? this.settingsFor(item.scopeUri) : null));
    });
    connection.onRequest('workspace/diagnostic/refresh', () => {
      this.diagnosticRefreshes++;
      return null;
    });
    connection.onRequest('client/registerCapability', (params: RegistrationParams) => {
      if (refuseRegistrations) return new ResponseError(ErrorCodes.InternalError, 'Internal error');
      for (const registration of params.registrations) this.registrations.push(registration);
      return null;
    });
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('workspace/applyEdit', (params: ApplyWorkspaceEditParams) => {
      this.appliedEdits.push(params);
      return this.answerApplyEdit(params);
    });
    connection.listen();
  }

  static async start(options: StartOptions = {}): Promise<LspClient> {
    const args = options.entry === 'cli' ? ['dist/cli.js', 'lsp', '--stdio'] : ['dist/server.js', '--stdio'];
    const [program, programArgs] = options.executable
      ? [options.executable, ['lsp', '--stdio']]
      : [process.execPath, args];
    const cwd = options.cwd ?? REPO_ROOT;
    const child = spawn(program, programArgs, { cwd, env: options.env ?? process.env, stdio: 'pipe' });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new LspClient(child, connection, options.settings ?? {}, options.refuseRegistrations);
    client.folderSettings = options.folderSettings ?? {};
    LspClient.running.add(client);
    const folder = options.workspace;
    const folders = [...(folder ? [folder] : []), ...(options.folders ?? [])];
    client.initializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folders[0] ? uriOf(folders[0]) : null,
      workspaceFolders: folders.length > 0 ? folders.map((each) => ({ uri: uriOf(each), name: path.basename(each) })) : null,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          applyEdit: true,
          workspaceEdit: { documentChanges: true },
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          ...(options.pullDiagnostics ? { diagnostics: { refreshSupport: true } } : {}),
          ...options.capabilities?.workspace,
        },
        ...(options.capabilities?.window ? { window: options.capabilities.window } : {}),
        textDocument: {
          synchronization: { dynamicRegistration: false },
          publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true },
          ...(options.completionSnippets ? { completion: { completionItem: { snippetSupport: true } } } : {}),
          ...(options.pullDiagnostics ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } },
            ...(options.resolveCodeActionEdits ? { resolveSupport: { properties: ['edit'] } } : {}),
          },
        },
      },
    });
    connection.sendNotification('initialized', {});
    return client;
  }

  /** Stops every client still running (for afterEach). */
  static async stopAll(): Promise<void> {
    await Promise.all([...LspClient.running].map((client) => client.stop()));
  }

  open(file: string, text: string, languageId = 'nginx'): { uri: string; version: number } {
    const uri = uriOf(file);
    this.versions.set(uri, 1);
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return { uri, version: 1 };
  }

  /** Sends the changes as the next version of `uri`; returns that version. */
  change(uri: string, changes: TextDocumentContentChangeEvent[]): number {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  close(uri: string): void {
    this.versions.delete(uri);
    this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** `folderSettings`: new per-folder answers too (those not given are kept). */
  setSettings(settings: Record<string, unknown>, folderSettings?: Record<string, Record<string, unknown>>): void {
    this.settings = settings;
    if (folderSettings) this.folderSettings = { ...this.folderSettings, ...folderSettings };
    this.connection.sendNotification('workspace/didChangeConfiguration', { settings: { nginxKeepalive: settings } });
  }

  /** The answer for a configuration item: its folder's settings when given, else the window's. */
  private settingsFor(scopeUri: string | undefined): Record<string, unknown> {
    if (scopeUri === undefined) return this.settings;
    const scope = fileURLToPath(scopeUri);
    const folder = Object.keys(this.folderSettings)
      .filter((candidate) => scope === candidate || scope.startsWith(`${candidate}/`))
      .sort((a, b) => b.length - a.length)[0];
    return folder === undefined ? this.settings : this.folderSettings[folder]!;
  }

  /** With `token`: cancelling it sends $/cancelRequest for this request (the answer is still awaited). */
  request<R>(method: string, params?: unknown, token?: CancellationToken): Promise<R> {
    return (token ? this.connection.sendRequest(method, params, token) : this.connection.sendRequest(method, params)) as Promise<R>;
  }

  notify(method: string, params?: unknown): void {
    this.connection.sendNotification(method, params);
  }

  /** Writes bytes to the server's stdin as they are (to send malformed messages, or several in one write). */
  writeRaw(bytes: string | Buffer): void {
    this.process.stdin.write(bytes);
  }

  /**
   * The response to a request sent with writeRaw (the connection does not know its id, so it is read off the
   * server's stdout directly).
   */
  waitForRawResponse(id: string): Promise<{ id: string; result?: unknown; error?: { code: number; message: string } }> {
    return new Promise((resolve) => {
      let buffered = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const headerEnd = buffered.indexOf('\r\n\r\n');
          const length = /Content-Length: (\d+)/i.exec(buffered.subarray(0, Math.max(headerEnd, 0)).toString('ascii'));
          if (headerEnd === -1 || !length || buffered.length < headerEnd + 4 + Number(length[1])) return;
          const body = JSON.parse(buffered.subarray(headerEnd + 4, headerEnd + 4 + Number(length[1])).toString('utf8'));
          buffered = buffered.subarray(headerEnd + 4 + Number(length[1]));
          if (body.id === id) {
            this.process.stdout.off('data', onData);
            resolve(body);
            return;
          }
        }
      };
      this.process.stdout.on('data', onData);
    });
  }

  /** JSON-RPC framing of one message, for writeRaw. */
  static frame(message: object): string {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    return `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
  }

  /** The latest publish for `uri`, if any. */
  latestDiagnostics(uri: string): PublishDiagnosticsParams | undefined {
    return this.latest.get(uri);
  }

  waitForDiagnostics(uri: string, predicate: (params: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const known = this.latest.get(uri);
    if (known && predicate(known)) return Promise.resolve(known);
    return new Promise((resolve) => this.waiters.push({ uri, predicate, resolve }));
  }

  diagnosticsFor(uri: string, version: number): Promise<PublishDiagnosticsParams> {
    return this.waitForDiagnostics(uri, (params) => params.version === version);
  }

  /** shutdown + exit, then waits for the process to end; kills it if the connection is already gone. */
  async stop(): Promise<number | null> {
    if (!LspClient.running.delete(this)) return this.exited;
    if (this.process.exitCode === null && this.process.signalCode === null) {
      try {
        // A server that died meanwhile never answers: its exit ends the wait instead.
        await Promise.race([this.connection.sendRequest('shutdown'), this.exited]);
        if (this.process.exitCode === null) await this.connection.sendNotification('exit');
      } catch {
        this.process.kill('SIGKILL');
      }
    }
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }

  private received(params: PublishDiagnosticsParams): void {
    this.publications.push(params);
    this.latest.set(params.uri, params);
    const ready = this.waiters.filter((waiter) => waiter.uri === params.uri && waiter.predicate(params));
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(params);
  }
}
