// Diagnostics for the nginx files of the workspace that are not open (setting nginxKeepalive.diagnostics:
// "workspace"). Files are analyzed by unit, as open documents are (analysis-units.ts): a workspace folder as `check .`
// run in it (else a root and the files it includes), so an included site file is judged in its includer's context,
// and a file reachable under two names is reported once, under the name the CLI uses. A unit's result is kept with a key
// made of its effective settings, the files the graph puts under it, and the stamps of every file its last analysis
// read (an open document's version, else mtime, size and inode): a unit whose key is unchanged is not analyzed again.
//
// Bounded (editor-settings.ts): past WORKSPACE_DIAGNOSTICS_MAX_FILES nginx files or WORKSPACE_DIAGNOSTICS_MAX_BYTES
// in the folders set to "workspace", or when the workspace index itself was cut short, no file gets workspace
// diagnostics and the output says why. A file over its folder's maxFileSize is reported as too large, unread.
// Work goes after the open documents' (whenIdle) and yields between units, so typing is never queued behind it.
import { statSync } from 'node:fs';
import path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CancellationToken, Diagnostic } from 'vscode-languageserver/node.js';
import { analyzeWorkspace } from '../engine/analyze.js';
import { withNginxParser } from '../parser/loader.js';
import type { Finding, FileHost } from '../util/types.js';
import type { AnalysisService } from './analysis-service.js';
import { folderOfUnit } from './analysis-units.js';
import { analysisFailedDiagnostic, toDiagnostic, tooLargeDiagnostic } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { WORKSPACE_DIAGNOSTICS_MAX_BYTES, WORKSPACE_DIAGNOSTICS_MAX_FILES } from './editor-settings.js';
import { cancelledError, describeError } from './guard.js';
import { tooLargeReason } from './open-document.js';
import { uriOfPath } from './paths.js';
import type { SettingsStore } from './settings-store.js';
import type { WorkspaceIndex } from './workspace-index.js';
import { nextTurns } from './settle.js';
import { diagnosticsId } from './message-encoding.js';

export interface FileDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
  /** Names the diagnostics' content: equal ids, equal diagnostics (a pull answers "unchanged"). */
  resultId: string;
}

export interface WorkspaceDiagnosticsDeps {
  index: WorkspaceIndex;
  documents: OpenDocuments;
  analyses: AnalysisService;
  settings: SettingsStore;
  host: FileHost;
  /** Settings and the index are loaded. */
  ready: Promise<void>;
  log(message: string): void;
  logError(message: string): void;
}

interface Unit {
  key: string;
  /** Every file the unit's last analysis read, with the stamp it had just before. */
  stamps: Map<string, string>;
  results: Map<string, FileDiagnostics>;
}

export function resultIdOf(diagnostics: readonly Diagnostic[]): string {
  return diagnosticsId(diagnostics);
}

export const EMPTY_RESULT_ID = resultIdOf([]);

export class WorkspaceDiagnostics {
  private readonly units = new Map<string, Unit>();
  /** Bumped by every change that may change a result; a long-polling request waits for it to move. */
  private generationCount = 0;
  private changeWaiters: Array<() => void> = [];
  /** One computation at a time: a second caller waits, then finds the first one's units cached. */
  private queue: Promise<unknown> = Promise.resolve();
  private offReason: string | undefined;
  /** Units analyzed so far (nginxKeepalive/stats). */
  unitsAnalyzed = 0;

  constructor(private readonly deps: WorkspaceDiagnosticsDeps) {}

  /** The files the workspace pass has read (each unit's root, its includes, whatever they read). */
  checkedFiles(): Set<string> {
    const files = new Set<string>();
    for (const unit of this.units.values()) for (const file of unit.stamps.keys()) files.add(file);
    return files;
  }

  get generation(): number {
    return this.generationCount;
  }

  /** Something changed (a document, a file on disk, settings, folders). */
  changed(): void {
    this.generationCount++;
    const waiters = this.changeWaiters;
    this.changeWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves when a change came after `generation`; rejects as cancelled when the token is. */
  waitForChange(generation: number, token: CancellationToken): Promise<void> {
    if (this.generationCount !== generation) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = token.onCancellationRequested(() => reject(cancelledError()));
      this.changeWaiters.push(() => {
        listener.dispose();
        resolve();
      });
    });
  }

  /** Whether `file`, when not open, gets workspace diagnostics (as of the last computation's bound). */
  covers(file: string): boolean {
    return this.offReason === undefined && this.deps.index.has(file) && this.deps.settings.editorFor(file).diagnostics === 'workspace';
  }

  /** The diagnostics of every workspace file that is not open, by absolute path. */
  compute(token?: CancellationToken): Promise<Map<string, FileDiagnostics>> {
    const run = this.queue.then(() => withNginxParser(() => this.computeNow(token)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async computeNow(token: CancellationToken | undefined): Promise<Map<string, FileDiagnostics>> {
    await this.deps.ready;
    // Messages the client has sent already are read first: an editor opens its documents right after `initialized`,
    // and their analysis must not wait behind a workspace pass that happened to start a moment earlier.
    await nextTurns();
    await this.deps.analyses.whenIdle();
    const sizes = this.eligibleFiles();
    const byRoot = new Map<string, string[]>();
    // An open document shows its file's findings (a link's, its target's): that file is not reported a second time.
    const shownOpen = new Set(this.deps.documents.all().map((document) => this.deps.analyses.nameOfFile(document.path)));
    for (const file of sizes.keys()) {
      if (this.deps.documents.atPath(file) || shownOpen.has(this.deps.analyses.nameOfFile(file))) continue;
      const root = this.deps.analyses.rootOfFile(file);
      const members = byRoot.get(root) ?? [];
      members.push(file);
      byRoot.set(root, members);
    }
    const results = new Map<string, FileDiagnostics>();
    for (const [root, members] of byRoot) {
      if (token?.isCancellationRequested) throw cancelledError();
      const unit = await this.unitFor(root, members, sizes);
      for (const member of members) results.set(member, unit.results.get(member) ?? fileDiagnostics(member, []));
    }
    for (const root of [...this.units.keys()]) if (!byRoot.has(root)) this.units.delete(root);
    return results;
  }

  /** The files of folders set to "workspace" with their sizes; none (and a line in the output) past the bound. */
  private eligibleFiles(): Map<string, number> {
    const { index, settings } = this.deps;
    const files = index.list().filter((file) => settings.editorFor(file).diagnostics === 'workspace');
    const sizes = new Map<string, number>();
    let bytes = 0;
    for (const file of files) {
      const size = sizeOf(file);
      sizes.set(file, size);
      // A file over maxFileSize is reported unread: it does not count against the bound.
      if (size <= settings.editorFor(file).maxFileSize) bytes += size;
    }
    let reason: string | undefined;
    if (index.truncated) reason = 'the workspace folders hold more nginx files than the server indexes';
    else if (files.length > WORKSPACE_DIAGNOSTICS_MAX_FILES) reason = `${files.length} nginx files, over the bound of ${WORKSPACE_DIAGNOSTICS_MAX_FILES}`;
    else if (bytes > WORKSPACE_DIAGNOSTICS_MAX_BYTES) reason = `${bytes} bytes of nginx files, over the bound of ${WORKSPACE_DIAGNOSTICS_MAX_BYTES}`;
    if (reason !== this.offReason) {
      this.deps.log(
        reason === undefined
          ? `workspace diagnostics: checking ${files.length} nginx file(s) of the workspace folders, open or not`
          : `workspace diagnostics are off (${reason}); only open files are checked (setting nginxKeepalive.diagnostics)`,
      );
      this.offReason = reason;
    }
    return reason === undefined ? sizes : new Map();
  }

  private async unitFor(root: string, members: readonly string[], sizes: ReadonlyMap<string, number>): Promise<Unit> {
    const options = this.deps.analyses.analyzeOptionsFor(root);
    const folder = folderOfUnit(root);
    const limit = this.deps.settings.editorFor(folder ?? root).maxFileSize;
    const { host: _host, models: _models, ...settings } = options;
    const keyBase = JSON.stringify({ settings, limit, members });
    const cached = this.units.get(root);
    if (cached && cached.key === keyBase && [...cached.stamps].every(([file, stamp]) => this.stampOf(file) === stamp)) return cached;
    // Open documents first: a keystroke's analysis never waits behind a workspace pass.
    await this.deps.analyses.whenIdle();
    // Stamps before reading: a file changed during the analysis then differs from its stamp next time.
    const stamps = new Map<string, string>();
    for (const file of [...(folder === undefined ? [root] : []), ...members, ...(cached?.stamps.keys() ?? [])]) {
      stamps.set(file, this.stampOf(file));
    }
    const unit: Unit = { key: keyBase, stamps, results: new Map() };
    this.units.set(root, unit);
    this.unitsAnalyzed++;
    // A folder's files over the limit are left out of its analysis (analysis-units.ts) and said to be too large here.
    for (const member of folder === undefined ? [root] : members) {
      const size = sizes.get(member) ?? 0;
      if (size > limit) unit.results.set(member, fileDiagnostics(member, [tooLargeDiagnostic(tooLargeReason(size, limit))]));
    }
    if (folder === undefined && unit.results.has(root)) return unit;
    const documents = this.deps.analyses.documentsOf(root);
    if (documents === undefined) return unit;
    try {
      const { findings, workspace } = await analyzeWorkspace(documents, options);
      const texts = new Map(workspace.files.map((file) => [path.resolve(file.path), file.text] as const));
      for (const file of texts.keys()) if (!stamps.has(file)) stamps.set(file, this.stampOf(file));
      const byFile = groupByFile(findings);
      for (const member of members) {
        if (unit.results.has(member)) continue;
        // A link whose target the folder keeps is that file, reported under the target's name: nothing of its own.
        const name = this.deps.analyses.nameOfFile(member);
        const memberText = texts.get(name);
        if (memberText === undefined) continue;
        const document = TextDocument.create(uriOfPath(member), 'nginx', 0, memberText);
        const own = name === member ? (byFile.get(member) ?? []) : [];
        unit.results.set(member, fileDiagnostics(member, own.map((finding) => toDiagnostic(finding, document))));
      }
    } catch (error) {
      this.deps.logError(`workspace diagnostics: analysing ${root} failed: ${describeError(error)}`);
      unit.results.set(root, fileDiagnostics(root, [analysisFailedDiagnostic(error instanceof Error ? error.message : String(error))]));
    }
    // Let queued messages (a keystroke, a hover) through before the next unit.
    await nextTurns();
    return unit;
  }

  private stampOf(file: string): string {
    const open = this.deps.documents.atPath(file);
    if (open) return `open:${open.uri}:${open.version}`;
    try {
      const stats = statSync(file);
      return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
    } catch {
      return 'missing';
    }
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function fileDiagnostics(file: string, diagnostics: Diagnostic[]): FileDiagnostics {
  return { uri: uriOfPath(file), diagnostics, resultId: resultIdOf(diagnostics) };
}

function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const file = path.resolve(finding.file);
    const list = byFile.get(file) ?? [];
    list.push(finding);
    byFile.set(file, list);
  }
  return byFile;
}
