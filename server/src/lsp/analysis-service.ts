// Decides what to analyze when, and publishes the results. Documents are marked dirty by changes (their own, or of a
// file their last analysis read); one worker analyzes dirty documents, one unit at a time (a workspace folder as
// `check .` sees it, or a root file with its includes: analysis-units.ts). A burst of changes is coalesced: the
// worker waits until a turn of the event loop passes without a new change, then analyzes the latest texts once.
// Diagnostics are only ever published for a document's current version.
import path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver/node.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { ReusableAnalysis } from '../engine/finding-reuse.js';
import type { ParserLike } from '../model/file-loader.js';
import { isUnder } from '../model/read-scope.js';
import { analyzeUnit, type UnitResult } from './analyze-unit.js';
import { folderOfUnit, type AnalysisUnits } from './analysis-units.js';
import { analysisFailedDiagnostic, toDiagnostic, tooLargeDiagnostic } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { groupsByFolder, includeKeyOf, type IncludeGraph } from './include-graph.js';
import type { ModelStore } from './model-store.js';
import { tooLargeReason, type OpenDocument } from './open-document.js';
import type { SettingsStore } from './settings-store.js';
import type { DocumentSnapshot } from './snapshot.js';
import type { WorkspaceIndex } from './workspace-index.js';

/** Waits for a quiet turn at most this often: a client that never stops typing still gets diagnostics. */
const MAX_SETTLE_TURNS = 500;

export interface AnalysisDeps {
  documents: OpenDocuments;
  models: ModelStore;
  host: FileHost;
  settings: SettingsStore;
  index: WorkspaceIndex;
  graph: IncludeGraph;
  units: AnalysisUnits;
  parser: ParserLike;
  /** Resolves once settings and the workspace index are loaded: nothing is analyzed with half the settings. */
  ready: Promise<void>;
  publish(document: OpenDocument, diagnostics: Diagnostic[]): void;
  logError(message: string): void;
}

interface DocumentState {
  snapshot: DocumentSnapshot | undefined;
  /** The files the document's last analysis read: a change to any of them makes it dirty. */
  unitFiles: Set<string>;
}

/**
 * Two turns of the event loop. The connection handles one queued message per turn (vscode-jsonrpc schedules its
 * queue with setImmediate), and a callback scheduled while a message is handled runs before the connection's next
 * turn: only after two turns has the connection had its chance to handle the next queued message.
 */
const nextTurns = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

export class AnalysisService {
  private readonly dirty = new Set<OpenDocument>();
  private readonly states = new Map<OpenDocument, DocumentState>();
  /** Each unit's latest analysis, which the next one of the same unit may reuse (engine/finding-reuse.ts). */
  private readonly latest = new Map<string, ReusableAnalysis>();
  /** Documents edited since the include graph was built: their include lines may have changed. */
  private readonly editedSinceGraph = new Set<OpenDocument>();
  private changes = 0;
  private running = false;
  /** Waiting for the open documents to be analyzed (workspace diagnostics go after them: typing comes first). */
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: AnalysisDeps) {}

  opened(document: OpenDocument): void {
    // The open document's model replaces the one cached for its text on disk.
    this.deps.models.forget(document.path);
    if (!this.deps.index.has(document.path)) this.invalidateUnits();
    this.editedSinceGraph.add(document);
    this.markDirty([document]);
  }

  changed(document: OpenDocument): void {
    this.changes++;
    this.editedSinceGraph.add(document);
    this.markDirty(this.affectedBy(document.path));
  }

  closed(document: OpenDocument): void {
    this.dirty.delete(document);
    this.states.delete(document);
    this.editedSinceGraph.delete(document);
    // Nothing to keep in memory for a closed document (another member of its unit only re-runs the rules once).
    this.latest.delete(this.deps.units.keyOf(document.path));
    if (!this.deps.index.has(document.path)) this.invalidateUnits();
    // Its text on disk may differ from the unsaved text others were analyzed with.
    this.markDirty(this.affectedBy(document.path));
  }

  /** Files changed on disk (created, changed or deleted): re-analyze the documents that read them. */
  filesChanged(paths: readonly string[], structural: boolean): void {
    // A Dockerfile or compose file may have changed: the nginx version is detected again (lsp/settings-store.ts).
    this.deps.settings.forgetDetections();
    for (const file of paths) this.deps.models.forget(file);
    this.invalidateUnits();
    this.markDirty(structural ? this.deps.documents.all() : paths.flatMap((file) => this.affectedBy(file)));
  }

  /** Settings, settings files or workspace folders changed: everything is re-analyzed. */
  everythingChanged(): void {
    this.deps.settings.forgetDetections();
    this.invalidateUnits();
    this.markDirty(this.deps.documents.all());
  }

  /** The snapshot of the document's current version, analysing first if needed; undefined if it is not open. */
  async snapshot(uri: string): Promise<DocumentSnapshot | undefined> {
    const document = this.deps.documents.get(uri);
    if (!document) return undefined;
    if (!this.isCurrent(document)) await this.analyze(document);
    const snapshot = this.states.get(document)?.snapshot;
    return this.deps.documents.get(uri) === document && snapshot?.version === document.version ? snapshot : undefined;
  }

  /** The options analyses of a unit (or a root file) run with (fix-all reuses them). */
  analyzeOptionsFor(key: string): AnalyzeOptions {
    const { host, models, settings } = this.deps;
    const folder = folderOfUnit(key);
    const readRoots = this.readRootsFor(folder ?? key);
    if (folder === undefined) return { ...settings.settingsFor(key, readRoots), readRoots, host, models };
    const folderSettings = settings.settingsForFolder(folder, readRoots ?? [folder], this.deps.units.pathsOf(folder));
    return { ...folderSettings, readRoots, host, models };
  }

  /** The unit the document is analyzed in (analysis-units.ts). */
  rootFor(document: OpenDocument): string {
    return this.deps.units.keyOf(document.path);
  }

  /** What a unit's analysis is given (fix-all runs on the same documents). */
  documentsOf(key: string): SourceDocument[] | undefined {
    return this.deps.units.documentsOf(key);
  }

  /** The name the document has in its unit (a link's: its target's, when the folder keeps that one). */
  nameOf(document: OpenDocument): string {
    return this.deps.units.nameOf(document.path);
  }

  /** The snapshot of the document's current version if it has one now; never starts an analysis. */
  currentSnapshot(uri: string): DocumentSnapshot | undefined {
    const document = this.deps.documents.get(uri);
    return document && this.isCurrent(document) ? this.states.get(document)?.snapshot : undefined;
  }

  /** The files the latest analyses of the open documents read and checked (the documents and their includes). */
  checkedFiles(): Set<string> {
    const files = new Set<string>();
    for (const state of this.states.values()) if (state.snapshot) for (const file of state.unitFiles) files.add(file);
    return files;
  }

  /** The unit a file (open or not) is analyzed in, the include graph brought up to date first. */
  rootOfFile(file: string): string {
    this.refreshGraph();
    return this.deps.units.keyOf(file);
  }

  /** The name a file has in its unit (a link's: its target's, when the folder keeps that one). */
  nameOfFile(file: string): string {
    return this.deps.units.nameOf(file);
  }

  /** Resolves once no open document waits to be analyzed. */
  whenIdle(): Promise<void> {
    if (!this.running && this.dirty.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isCurrent(document: OpenDocument): boolean {
    return !this.dirty.has(document) && this.states.get(document)?.snapshot?.version === document.version;
  }

  private affectedBy(file: string): OpenDocument[] {
    const resolved = path.resolve(file);
    return this.deps.documents
      .all()
      .filter((document) => document.path === resolved || this.states.get(document)?.unitFiles.has(resolved));
  }

  private markDirty(documents: readonly OpenDocument[]): void {
    for (const document of documents) this.dirty.add(document);
    if (this.dirty.size > 0 && !this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.dirty.size > 0) {
        await this.settle();
        const next = this.dirty.values().next().value;
        if (next) await this.analyzeSafely(next);
      }
    } finally {
      this.running = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Waits while changes keep arriving, so a burst ends in one analysis of the final text. */
  private async settle(): Promise<void> {
    for (let turn = 0; turn < MAX_SETTLE_TURNS; turn++) {
      const before = this.changes;
      await nextTurns();
      if (this.changes === before) return;
    }
  }

  private async analyzeSafely(document: OpenDocument): Promise<void> {
    try {
      await this.analyze(document);
    } catch (error) {
      this.deps.logError(`analysing ${document.uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      // Say so in the document rather than leave the previous version's diagnostics standing as if current.
      const reason = error instanceof Error ? error.message : String(error);
      if (this.deps.documents.get(document.uri) === document) this.deps.publish(document, [analysisFailedDiagnostic(reason)]);
    } finally {
      // Whatever happened, this version was tried: retrying in a loop would only fail again.
      this.dirty.delete(document);
    }
  }

  private async analyze(document: OpenDocument): Promise<void> {
    await this.deps.ready;
    if (this.deps.documents.get(document.uri) !== document) return;
    this.refreshGraph();
    if (document.isTooLarge) {
      this.dirty.delete(document);
      this.states.set(document, { snapshot: undefined, unitFiles: new Set([document.path]) });
      this.deps.publish(document, [tooLargeDiagnostic(tooLargeReason(document.text.length, this.deps.settings.editorFor(document.path).maxFileSize))]);
      return;
    }
    const key = this.deps.units.keyOf(document.path);
    const result = await this.runUnit(key, document);
    if (!result?.snapshots.has(document) && key !== document.path) {
      // The graph was out of date (the includer changed or went away): analyze the document alone for now.
      this.invalidateUnits();
      await this.runUnit(document.path, document);
    }
  }

  private invalidateUnits(): void {
    this.deps.graph.invalidate();
    this.deps.units.invalidate();
  }

  private async runUnit(key: string, document: OpenDocument): Promise<UnitResult | undefined> {
    const { documents, units } = this.deps;
    const members = documents
      .all()
      .filter((member) => member === document || (!member.isTooLarge && units.keyOf(member.path) === key));
    const sources = units.documentsOf(key);
    // The root file was deleted since the graph was built.
    const { host: _host, models: _models, readRoots, ...settings } = this.analyzeOptionsFor(key);
    const result = sources && (await analyzeUnit({
      documents: sources,
      members,
      nameOf: (member) => (key === member.path ? member.path : units.nameOf(member.path)),
      host: this.deps.host,
      models: this.deps.models,
      settings,
      readRoots,
      previous: this.latest.get(key),
    }));
    if (result) this.latest.set(key, result.analysis);
    else this.latest.delete(key);
    for (const [member, snapshot] of result?.snapshots ?? []) {
      if (documents.get(member.uri) !== member) continue;
      this.states.set(member, { snapshot, unitFiles: result!.files });
      this.dirty.delete(member);
      this.deps.publish(member, snapshot.findings.map((finding) => toDiagnostic(finding, member.textDocument)));
    }
    return result;
  }

  /** Rebuilds the include graph when it may be out of date; documents whose root changed are re-analyzed. */
  private refreshGraph(): void {
    const { graph, documents, parser } = this.deps;
    for (const document of this.editedSinceGraph) {
      if (!document.isTooLarge && graph.includesChanged(document.path, includeKeyOf(document.currentModel(parser)))) {
        graph.invalidate();
      }
    }
    this.editedSinceGraph.clear();
    if (!graph.isStale) return;
    const before = new Map(documents.all().map((document) => [document, this.deps.units.keyOf(document.path)] as const));
    const folders = this.deps.index.folders;
    const paths = new Set([...this.deps.index.list(), ...documents.all().filter((d) => !d.isTooLarge).map((d) => d.path)]);
    const pathMapOf = (folder: string | undefined) =>
      this.deps.settings.settingsForDirectory(folder ?? folders[0] ?? '/', folders.length > 0 ? folders : undefined).pathMap ?? [];
    const groups = groupsByFolder(paths, folders, (file) => this.deps.host.readFile(file), pathMapOf);
    graph.rebuild({
      groups,
      host: this.deps.host,
      parser,
      models: this.deps.models,
      readRoots: folders.length > 0 ? [...folders] : undefined,
    });
    this.markDirty([...before].filter(([document, key]) => this.deps.units.keyOf(document.path) !== key).map(([document]) => document));
  }

  /** The workspace folders, plus the root's directory when it lies outside them (a file opened from elsewhere). */
  private readRootsFor(root: string): string[] | undefined {
    const folders = this.deps.index.folders;
    if (folders.length === 0) return undefined;
    return folders.some((folder) => isUnder(root, folder)) ? [...folders] : [...folders, path.dirname(root)];
  }
}
