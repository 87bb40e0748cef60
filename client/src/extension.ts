// The VS Code extension: starts the bundled language server, forwards one command to it, and can restart it. Every check, fix and
// setting is the server's; the client only wires VS Code to it, so VS Code and any other LSP client behave alike.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node.js';
import {
  CONFIGURATION_SECTION,
  FIX_ALL_COMMAND,
  LANGUAGE_ID,
  OUTPUT_CHANNEL,
  RESTART_COMMAND,
  SERVER_FIX_ALL_COMMAND,
  SHOW_OUTPUT_COMMAND,
} from './ids.js';
import { registerRuleDocumentation } from './rule-documentation.js';
import { registerDocumentClaims } from './claim-documents.js';
import { SERVER_NODE_FLAGS } from './server-flags.js';
import { createStatusItem } from './status-item.js';

let client: LanguageClient | undefined;

function serverOptions(context: vscode.ExtensionContext): ServerOptions {
  // dist/server.js sits beside this bundle in the VSIX; node-ipc is the cheapest transport VS Code offers.
  const server = {
    module: context.asAbsolutePath('dist/server.js'),
    transport: TransportKind.ipc,
    options: { execArgv: [...SERVER_NODE_FLAGS] },
  };
  return { run: server, debug: server };
}

function clientOptions(outputChannel: vscode.OutputChannel): LanguageClientOptions {
  return {
    // untitled too: a pasted config is checked before it is saved anywhere.
    documentSelector: [
      { language: LANGUAGE_ID, scheme: 'file' },
      { language: LANGUAGE_ID, scheme: 'untitled' },
    ],
    synchronize: { configurationSection: CONFIGURATION_SECTION },
    outputChannel,
  };
}

const SAVE_ALL = 'Save all';

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What fix-all did, in words, and the offer to save the files it changed (they are left unsaved, as edits). */
async function reportFixAll(summary: { files?: number; fixes?: number } | null): Promise<void> {
  const files = summary?.files ?? 0;
  if (files === 0) {
    void vscode.window.showInformationMessage('nginx-keepalive: nothing to fix in the workspace');
    return;
  }
  const text = `nginx-keepalive: fixed ${plural(summary?.fixes ?? files, 'problem')} in ${plural(files, 'file')}`;
  if ((await vscode.window.showInformationMessage(text, SAVE_ALL)) === SAVE_ALL) await vscode.workspace.saveAll(false);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel(OUTPUT_CHANNEL);
  context.subscriptions.push(outputChannel);
  // The client's id is the settings section, so `nginxKeepalive.trace.server` turns on the LSP message trace.
  const languageClient = new LanguageClient(
    CONFIGURATION_SECTION,
    OUTPUT_CHANNEL,
    serverOptions(context),
    clientOptions(outputChannel),
  );
  client = languageClient;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'unknown');
  const started = (what: string) => outputChannel.appendLine(`[${new Date().toISOString()}] nginx-keepalive ${version}: ${what}`);
  context.subscriptions.push(
    vscode.commands.registerCommand(FIX_ALL_COMMAND, async () => {
      const summary = (await languageClient.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_FIX_ALL_COMMAND,
        arguments: [],
      })) as { files?: number; fixes?: number } | null;
      await reportFixAll(summary);
    }),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => outputChannel.show(true)),
    vscode.commands.registerCommand(RESTART_COMMAND, async () => {
      started('restarting the language server');
      await languageClient.restart();
      started('language server restarted');
    }),
  );
  const stateNames: Record<State, string> = { [State.Starting]: 'starting', [State.Running]: 'running', [State.Stopped]: 'stopped' };
  context.subscriptions.push(
    languageClient.onDidChangeState(({ oldState, newState }) => started(`server ${stateNames[oldState]} -> ${stateNames[newState]}`)),
    createStatusItem(languageClient),
    registerRuleDocumentation(languageClient),
    // Before the server starts: the documents it is then told about are the ones that are nginx.
    registerDocumentClaims(context, started),
  );
  started(`starting the language server (${context.asAbsolutePath('dist/server.js')})`);
  await languageClient.start();
  started('language server started');
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
