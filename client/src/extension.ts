// The VS Code extension's node entry: forks the bundled language server (dist/server.js) over node-ipc, and offers
// "Prove connection reuse" (prove-command.ts), which runs nginx and so exists only here. The rest is activate.ts's,
// shared with the browser entry.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node.js';
import { activateClient, clientOptions } from './activate.js';
import { CONFIGURATION_SECTION, OUTPUT_CHANNEL } from './ids.js';
import { registerProveCommand } from './prove-command.js';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.js';

let client: LanguageClient | undefined;

function serverOptions(context: vscode.ExtensionContext): ServerOptions {
  // dist/server.js sits beside this bundle in the VSIX; node-ipc is the cheapest transport VS Code offers.
  const server = {
    module: context.asAbsolutePath('dist/server.js'),
    transport: TransportKind.ipc,
    options: { execArgv: [...SERVER_NODE_FLAGS], env: { ...process.env, ...SERVER_ENV } },
  };
  return { run: server, debug: server };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // Before the server starts: prove runs the CLI, not the server, and works while the server starts or fails to.
  context.subscriptions.push(registerProveCommand(context));
  // The client's id is the settings section, so `nginxKeepalive.trace.server` turns on the LSP message trace.
  client = (await activateClient(
    context,
    (outputChannel) =>
      // untitled too: a pasted config is checked before it is saved anywhere.
      new LanguageClient(CONFIGURATION_SECTION, OUTPUT_CHANNEL, serverOptions(context), clientOptions(outputChannel, ['file', 'untitled'])),
    context.asAbsolutePath('dist/server.js'),
  )) as LanguageClient;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
