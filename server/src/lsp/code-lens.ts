// The upstream code lens on the wire (features/code-lens.ts says what it reads): textDocument/codeLens, the
// workspace/codeLens/refresh the server sends when an analysis changed a lens the client was shown (an edit in
// another file, a setting), and the command behind a click, which reveals the first pass that needs a change
// (window/showDocument). Without showDocument support the lens is text only.
import type { CodeLens, Command, Connection, ExecuteCommandParams, Range } from 'vscode-languageserver/node.js';
import { upstreamLenses, type UpstreamLens } from '../features/code-lens.js';
import { lineIndexOf } from '../features/positions.js';
import type { EditorSettings } from './editor-settings.js';
import { uriOfPath } from './paths.js';
import type { DocumentSnapshot, SnapshotProvider } from './snapshot.js';

/** Executed by the server (its executeCommandProvider); VS Code forwards a click on the lens to it. */
export const REVEAL_PASS_COMMAND = 'nginx-keepalive.revealPass';

export interface CodeLensDeps {
  connection: Connection;
  snapshot: SnapshotProvider;
  /** The latest snapshot without analysing (undefined while the document is being analyzed again). */
  currentSnapshot(uri: string): DocumentSnapshot | undefined;
  editorFor(file: string): Pick<EditorSettings, 'codeLens'>;
  isOpen(uri: string): boolean;
  /** workspace.codeLens.refreshSupport */
  refreshSupport: boolean;
  /** window.showDocument.support */
  showDocumentSupport: boolean;
}

interface RevealArguments {
  uri: string;
  range: Range;
}

export class CodeLensFeature {
  /** What each document's lenses were when the client last asked for them, to refresh only when that changes. */
  private readonly shown = new Map<string, string>();
  private refreshQueued = false;

  constructor(private readonly deps: CodeLensDeps) {}

  lensesOf(snapshot: DocumentSnapshot): CodeLens[] {
    if (!this.deps.editorFor(snapshot.path).codeLens) return [];
    const lines = lineIndexOf(snapshot.file);
    return upstreamLenses(snapshot).map((lens) => ({ range: lines.rangeOf(lens.span), command: this.commandOf(snapshot, lens) }));
  }

  async answer(uri: string): Promise<CodeLens[] | null> {
    const snapshot = await this.deps.snapshot(uri);
    if (!snapshot) return null;
    const lenses = this.lensesOf(snapshot);
    this.shown.set(uri, signatureOf(lenses));
    return lenses;
  }

  /** After an analysis of `uri`: asks the client to fetch lenses again if the ones it was shown changed. */
  analyzed(uri: string): void {
    if (!this.deps.refreshSupport || !this.shown.has(uri)) return;
    const snapshot = this.deps.currentSnapshot(uri);
    if (!snapshot) return;
    const signature = signatureOf(this.lensesOf(snapshot));
    if (signature === this.shown.get(uri)) return;
    this.shown.set(uri, signature);
    this.queueRefresh();
  }

  /** Handles a click on a lens; false for any other command. */
  async execute(params: ExecuteCommandParams): Promise<boolean> {
    if (params.command !== REVEAL_PASS_COMMAND) return false;
    const [target] = (params.arguments ?? []) as Partial<RevealArguments>[];
    if (typeof target?.uri !== 'string' || !target.range) throw new Error(`${REVEAL_PASS_COMMAND} expects { uri, range }`);
    await this.deps.connection.window.showDocument({ uri: target.uri, selection: target.range, takeFocus: true });
    return true;
  }

  private commandOf(snapshot: DocumentSnapshot, lens: UpstreamLens): Command {
    const reveal = lens.reveal;
    // An empty command id: VS Code shows the title and does nothing on click.
    if (!reveal || !this.deps.showDocumentSupport) return { title: lens.title, command: '' };
    const uri = reveal.file.path === snapshot.path ? snapshot.uri : uriOfPath(reveal.file.path);
    const target: RevealArguments = { uri, range: lineIndexOf(reveal.file).rangeOf(reveal.span) };
    return { title: lens.title, command: REVEAL_PASS_COMMAND, arguments: [target] };
  }

  /** One refresh for all the analyses of a burst; documents closed meanwhile are forgotten. */
  private queueRefresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    setImmediate(() => {
      this.refreshQueued = false;
      for (const uri of this.shown.keys()) if (!this.deps.isOpen(uri)) this.shown.delete(uri);
      // A client that fails the refresh keeps the lenses it has; they are fetched again on its next edit.
      void this.deps.connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    });
  }
}

function signatureOf(lenses: readonly CodeLens[]): string {
  return JSON.stringify(lenses.map((lens) => [lens.range.start.line, lens.command?.title, lens.command?.arguments]));
}
