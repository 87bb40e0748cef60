// What both entries of the extension share: the client's options, its commands, the status item, rule documentation
// and document claims. Every check, fix and setting is the server's; the client only wires VS Code to it, so VS Code
// and any other LSP client behave alike.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  State,
  type BaseLanguageClient,
  type LanguageClientOptions,
} from 'vscode-languageclient/lib/common/api.js';
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
import { createStatusItem } from './status-item.js';

/**
 * The client's options; `schemes`: the URI schemes of the documents it sends (the node server reads files, the web
 * worker has only what the editor gives it, whatever the scheme: vscode.dev's `vscode-vfs`, github.dev's...).
 */
export function clientOptions(outputChannel: vscode.OutputChannel, schemes: readonly string[] | 'any'): LanguageClientOptions {
  return {
    documentSelector: schemes === 'any' ? [{ language: LANGUAGE_ID }] : schemes.map((scheme) => ({ language: LANGUAGE_ID, scheme })),
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

/**
 * Everything but how the server is started: the node entry (extension.ts) forks dist/server.js, the browser entry
 * (browser-extension.ts) starts dist/server-browser.js in a web worker. `create` makes the client with the output
 * channel made here; `server` names what it starts, for the output.
 */
export async function activateClient(
  context: vscode.ExtensionContext,
  create: (outputChannel: vscode.OutputChannel) => BaseLanguageClient,
  server: string,
): Promise<BaseLanguageClient> {
  const outputChannel = vscode.window.createOutputChannel(OUTPUT_CHANNEL);
  context.subscriptions.push(outputChannel);
  const languageClient = create(outputChannel);
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
      // Stop, then start: what the node client's restart() does, and the browser client has no restart().
      if (languageClient.isRunning()) await languageClient.stop();
      await languageClient.start();
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
  started(`starting the language server (${server})`);
  await languageClient.start();
  started('language server started');
  return languageClient;
}
