// The VS Code extension's browser entry (vscode.dev, github.dev, VS Code for the Web): the language server runs in a
// web worker (dist/server-browser.js, lsp/browser-main.ts). It has no disk: it checks the documents the editor opens,
// and an include reaches only another open document. The rest is activate.ts's, shared with the node entry.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser.js';
import { activateClient, clientOptions } from './activate.js';
import { CONFIGURATION_SECTION, OUTPUT_CHANNEL } from './ids.js';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverUri = vscode.Uri.joinPath(context.extensionUri, 'dist/server-browser.js');
  client = (await activateClient(
    context,
    (outputChannel) =>
      new LanguageClient(CONFIGURATION_SECTION, OUTPUT_CHANNEL, clientOptions(outputChannel, 'any'), new Worker(serverUri.toString(true))),
    serverUri.toString(true),
  )) as LanguageClient;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
