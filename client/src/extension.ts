// The VS Code extension: starts the bundled language server, forwards one command to it, and can restart it. Every check, fix and
// setting is the server's; the client only wires VS Code to it, so VS Code and any other LSP client behave alike.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
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

let client: LanguageClient | undefined;

function serverOptions(context: vscode.ExtensionContext): ServerOptions {
  // dist/server.js sits beside this bundle in the VSIX; node-ipc is the cheapest transport VS Code offers.
  const server = { module: context.asAbsolutePath('dist/server.js'), transport: TransportKind.ipc };
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
    vscode.commands.registerCommand(FIX_ALL_COMMAND, () =>
      languageClient.sendRequest(ExecuteCommandRequest.type, { command: SERVER_FIX_ALL_COMMAND, arguments: [] }),
    ),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => outputChannel.show(true)),
    vscode.commands.registerCommand(RESTART_COMMAND, async () => {
      started('restarting the language server');
      await languageClient.restart();
      started('language server restarted');
    }),
  );
  started(`starting the language server (${context.asAbsolutePath('dist/server.js')})`);
  await languageClient.start();
  started('language server started');
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
