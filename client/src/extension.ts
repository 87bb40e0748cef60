// The VS Code extension: starts the bundled language server and forwards one command to it. Every check, fix and
// setting is the server's; the client only wires VS Code to it, so VS Code and any other LSP client behave alike.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node.js';
import { CONFIGURATION_SECTION, FIX_ALL_COMMAND, LANGUAGE_ID, OUTPUT_CHANNEL, SERVER_FIX_ALL_COMMAND } from './ids.js';

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
  context.subscriptions.push(
    vscode.commands.registerCommand(FIX_ALL_COMMAND, () =>
      languageClient.sendRequest(ExecuteCommandRequest.type, { command: SERVER_FIX_ALL_COMMAND, arguments: [] }),
    ),
  );
  await languageClient.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
