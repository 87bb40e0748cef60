// The language status item (the `{}` next to "NGINX" in the status bar): the server's state, the nginx version the
// active file is checked for and where that came from, and how many files were checked. The server knows the
// version and the count (nginxKeepalive/status); the client asks again when the active editor changes, when
// diagnostics change (an analysis ended: a setting or a Dockerfile may have moved the version) and when the server
// starts or stops.
import * as vscode from 'vscode';
import { State, type BaseLanguageClient as LanguageClient } from 'vscode-languageclient/lib/common/api.js';
import { LANGUAGE_ID, RESTART_COMMAND, SHOW_OUTPUT_COMMAND, STATUS_REQUEST } from './ids.js';

/** As server/src/lsp/status.ts answers it. */
interface ServerStatus {
  serverVersion: string;
  nginx: { label: string; source: string; origin: string };
  filesChecked: number;
  openDocuments: number;
}

/** Diagnostics arrive in bursts (one publish per file): one status request per burst. */
const SETTLE_MS = 300;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function nginxUri(editor: vscode.TextEditor | undefined): string | undefined {
  return editor?.document.languageId === LANGUAGE_ID ? editor.document.uri.toString() : undefined;
}

export function createStatusItem(client: LanguageClient): vscode.Disposable {
  const item = vscode.languages.createLanguageStatusItem('nginxKeepalive.status', { language: LANGUAGE_ID });
  item.name = 'nginx-keepalive';
  let timer: NodeJS.Timeout | undefined;
  /** Only the latest request's answer is shown (an older one may arrive after it). */
  let asked = 0;

  const showState = (state: State) => {
    item.severity = vscode.LanguageStatusSeverity.Information;
    item.command = { title: 'Show output', command: SHOW_OUTPUT_COMMAND };
    item.busy = state === State.Starting;
    if (state === State.Starting) {
      item.text = 'nginx-keepalive: starting';
      item.detail = undefined;
    } else if (state === State.Stopped) {
      item.text = 'nginx-keepalive: stopped';
      item.detail = 'the language server is not running (see the output)';
      item.severity = vscode.LanguageStatusSeverity.Error;
      item.command = { title: 'Restart server', command: RESTART_COMMAND };
    }
  };

  const refresh = async () => {
    if (client.state !== State.Running) return;
    const ticket = ++asked;
    const uri = nginxUri(vscode.window.activeTextEditor);
    try {
      const status = await client.sendRequest<ServerStatus>(STATUS_REQUEST, { uri });
      if (ticket !== asked) return;
      item.busy = false;
      item.severity = vscode.LanguageStatusSeverity.Information;
      item.text = `nginx ${status.nginx.label}`;
      item.detail = `from ${status.nginx.origin} · ${plural(status.filesChecked, 'file')} checked`;
      item.command = { title: 'Show output', command: SHOW_OUTPUT_COMMAND };
    } catch (error) {
      // The server stopped meanwhile (its state change says so) or failed the request: the output has the reason.
      if (ticket === asked && client.state === State.Running) {
        item.text = 'nginx-keepalive: no status';
        item.detail = error instanceof Error ? error.message : String(error);
      }
    }
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), SETTLE_MS);
  };

  showState(client.state);
  const subscriptions = [
    item,
    client.onDidChangeState(({ newState }) => {
      showState(newState);
      if (newState === State.Running) void refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (nginxUri(editor)) void refresh();
    }),
    // The item shows only beside an nginx editor: other languages' diagnostics ask nothing then.
    vscode.languages.onDidChangeDiagnostics(() => {
      if (nginxUri(vscode.window.activeTextEditor)) soon();
    }),
    { dispose: () => clearTimeout(timer) },
  ];
  if (client.state === State.Running) void refresh();
  return vscode.Disposable.from(...subscriptions);
}
