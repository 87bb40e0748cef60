// "nginx-keepalive: Prove connection reuse": runs the bundled CLI's `prove` for the active file's configuration, with
// a cancellable progress notification, and shows its report in a webview. What is proved is what the language server
// checks for that file: a file in a workspace folder is part of the folder, which the server analyzes as `check .`
// run in it does (docs/editors.md), so prove runs `prove .` there; a file outside every folder is proved alone, and
// an untitled document through stdin (`prove -`). Only the node entry registers it: it starts nginx, which VS Code
// for the Web cannot, and a workspace must be trusted (package.json hides it otherwise; the handler checks again).
import * as vscode from 'vscode';
import { CONFIGURATION_SECTION, PROVE_AVAILABLE_CONTEXT, PROVE_COMMAND, PROVE_NGINX_PATH_SETTING } from './ids.js';
import { renderProvePage } from './prove-html.js';
import { readOutcome } from './prove-report.js';
import { fileTarget, folderTarget, readsFromDisk, runProveCli, textTarget, type ProveSettings, type ProveTarget } from './prove-run.js';

const TITLE = 'nginx-keepalive: Prove connection reuse';

interface Subject {
  target: ProveTarget;
  /** What was proved, in words. */
  label: string;
  /** The document whose settings apply. */
  scope: vscode.Uri;
}

const baseName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** What prove runs on for this document, or why it cannot. */
function subjectOf(document: vscode.TextDocument): Subject | string {
  const { uri } = document;
  if (uri.scheme === 'untitled') {
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
    return { target: textTarget(document.getText(), folder?.uri.fsPath), label: `${baseName(uri)} (prove -, its text on stdin)`, scope: uri };
  }
  if (uri.scheme !== 'file') return `prove runs nginx on files on disk; ${uri.scheme}: documents cannot be proved`;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (folder && folder.uri.scheme === 'file') {
    return { target: folderTarget(folder.uri.fsPath), label: `the workspace folder ${folder.name} (prove . in ${folder.uri.fsPath})`, scope: uri };
  }
  return { target: fileTarget(uri.fsPath), label: `${uri.fsPath} with its includes (prove ${baseName(uri)})`, scope: uri };
}

function settingsFor(scope: vscode.Uri): ProveSettings {
  const configuration = vscode.workspace.getConfiguration(CONFIGURATION_SECTION, scope);
  const pathMap = configuration.get<Record<string, string>>('pathMap') ?? {};
  return { nginxPath: configuration.get<string>(PROVE_NGINX_PATH_SETTING) ?? '', pathMap: typeof pathMap === 'object' && pathMap !== null ? pathMap : {} };
}

export function registerProveCommand(context: vscode.ExtensionContext): vscode.Disposable {
  const cli = context.asAbsolutePath('dist/cli.js');
  let panel: vscode.WebviewPanel | undefined;
  /** The run in progress (one at a time): aborting it sends prove SIGINT. */
  let running: AbortController | undefined;
  /** What was proved last, for a run from the prove view (where no text editor is active). */
  let last: Subject | undefined;

  const show = (html: string): void => {
    if (!panel) {
      panel = vscode.window.createWebviewPanel('nginxKeepalive.prove', 'nginx-keepalive prove', vscode.ViewColumn.Beside, {
        enableScripts: false,
        localResourceRoots: [],
      });
      panel.onDidDispose(() => (panel = undefined));
    }
    panel.webview.html = html;
    panel.reveal(undefined, true);
  };

  const prove = async (): Promise<void> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('nginx-keepalive: prove runs nginx, so it is not available in Restricted Mode (trust the workspace first)');
      return;
    }
    if (running) {
      void vscode.window.showInformationMessage('nginx-keepalive: prove is already running');
      return;
    }
    const document = vscode.window.activeTextEditor?.document;
    // From the prove view itself (no text editor is active then): the same configuration again.
    const subject = document ? subjectOf(document) : last;
    if (!subject) {
      void vscode.window.showErrorMessage('nginx-keepalive: open an nginx configuration to prove');
      return;
    }
    if (typeof subject === 'string') {
      void vscode.window.showErrorMessage(`nginx-keepalive: ${subject}`);
      return;
    }
    // Not an untitled document's: its text is read when the command runs.
    if (subject.target.input === undefined) last = subject;
    const abort = new AbortController();
    running = abort;
    try {
      const exit = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: TITLE, cancellable: true },
        (progress, token) => {
          progress.report({ message: 'running nginx on a sandboxed copy, as written and as fixed…' });
          token.onCancellationRequested(() => abort.abort());
          return runProveCli(process.execPath, cli, subject.target, settingsFor(subject.scope), { signal: abort.signal });
        },
      );
      const outcome = readOutcome(exit);
      if (outcome.kind === 'cancelled') {
        void vscode.window.showInformationMessage('nginx-keepalive: prove cancelled (it stopped nginx and removed its sandbox)');
        return;
      }
      const unsaved = vscode.workspace.textDocuments.some((open) => open.isDirty && open.uri.scheme === 'file' && readsFromDisk(subject.target, open.uri.fsPath));
      show(
        renderProvePage(outcome, {
          subject: `Proved: ${subject.label}`,
          nonce: globalThis.crypto.randomUUID(),
          notes: unsaved ? ['Unsaved changes are not measured: prove reads the files on disk.'] : [],
        }),
      );
    } catch (error) {
      void vscode.window.showErrorMessage(`nginx-keepalive: prove could not start: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = undefined;
    }
  };

  void vscode.commands.executeCommand('setContext', PROVE_AVAILABLE_CONTEXT, true);
  return vscode.Disposable.from(
    vscode.commands.registerCommand(PROVE_COMMAND, prove),
    // The window closes or the extension stops: prove cleans up before it exits.
    { dispose: () => running?.abort() },
    { dispose: () => panel?.dispose() },
  );
}
