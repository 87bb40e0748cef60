// Switches a document to nginx when it opens (or is already open at activation) and its name and text are nginx by
// the same rule `nginx-keepalive check <dir>` and the language server's workspace index use
// (server/src/engine/document-claim.ts). package.json claims only names that are nginx's alone; a `conf.d/*.conf`, a
// `sites-available/` file or a `*.j2` is nginx only when its text says so, and fontconfig's XML keeps its language.
//
// A language chosen for a document is never overridden: only fresh opens are judged, never a language change, and a
// document whose language was changed away from nginx (Change Language Mode, another extension) is remembered in the
// workspace state so reopening it later does not switch it back. `files.associations` entries naming the document's
// current language count as the user's choice too.
import * as vscode from 'vscode';
import { claimDocument } from '../../server/src/engine/document-claim.js';
import { LANGUAGE_ID } from './ids.js';

/** Workspace state: document URI → the language the user (or another extension) changed it to. */
const CHOICES_KEY = 'nginxKeepalive.languageChoices';
/** Enough for any real workspace; the oldest choices go first. */
const MAX_REMEMBERED_CHOICES = 500;

export function registerDocumentClaims(
  context: vscode.ExtensionContext,
  log: (line: string) => void,
): vscode.Disposable {
  const state = context.workspaceState;
  const choices = (): Record<string, string> => state.get<Record<string, string>>(CHOICES_KEY) ?? {};
  const remember = async (uri: string, languageId: string | undefined): Promise<void> => {
    const { [uri]: _previous, ...others } = choices();
    const kept = Object.entries(others).slice(-(MAX_REMEMBERED_CHOICES - 1));
    await state.update(CHOICES_KEY, Object.fromEntries(languageId === undefined ? kept : [...kept, [uri, languageId]]));
  };

  // VS Code reports a language change as a close and an open of the same document in one synchronous call
  // (ExtHostDocuments.$acceptModelLanguageChanged), so a document closed in this task and opened again is a change.
  const closing = new Set<string>();

  const judge = async (document: vscode.TextDocument): Promise<void> => {
    const { uri, languageId } = document;
    const claim = claimDocument({ fileName: baseName(uri), languageId, text: document.getText() });
    if (!claim.switchToNginx) return;
    const name = vscode.workspace.asRelativePath(uri);
    const chosen = choices()[uri.toString()];
    const why = chosen !== undefined ? `its language was changed to ${chosen}` : associatedByUser(document) ? 'files.associations says so' : '';
    if (why !== '') {
      log(`${name}: nginx by its text, left ${languageId}: ${why}`);
      return;
    }
    try {
      await vscode.languages.setTextDocumentLanguage(document, LANGUAGE_ID);
      log(`${name}: opened as nginx (its text is nginx configuration)`);
    } catch (error) {
      // Closed before the switch landed: nothing to do. Anything else is worth a line in the output.
      if (!document.isClosed) log(`${name}: could not switch to nginx: ${String(error)}`);
    }
  };

  const languageChanged = (document: vscode.TextDocument): Promise<void> =>
    // Back to nginx (by this extension or the user): nothing to respect any more.
    remember(document.uri.toString(), document.languageId === LANGUAGE_ID ? undefined : document.languageId);

  for (const document of vscode.workspace.textDocuments) void judge(document);
  return vscode.Disposable.from(
    vscode.workspace.onDidCloseTextDocument((document) => {
      const uri = document.uri.toString();
      closing.add(uri);
      queueMicrotask(() => closing.delete(uri));
    }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      void (closing.has(document.uri.toString()) ? languageChanged(document) : judge(document));
    }),
  );
}

function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/**
 * Whether a `files.associations` entry maps this document to the language it has: the user asked for it. Keys
 * without a slash match the base name, as VS Code reads them.
 */
function associatedByUser(document: vscode.TextDocument): boolean {
  const associations = vscode.workspace.getConfiguration('files', document).get<Record<string, string>>('associations') ?? {};
  return Object.entries(associations).some(
    ([pattern, languageId]) =>
      languageId === document.languageId &&
      vscode.languages.match({ pattern: pattern.includes('/') ? pattern : `**/${pattern}` }, document) > 0,
  );
}
