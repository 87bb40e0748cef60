// Decides what to analyze when, and publishes the results. Documents are marked dirty by changes (their own, or of a
// file in their include graph); one worker analyzes dirty documents, one root at a time. A burst of changes is
// coalesced: the worker waits until a turn of the event loop passes without a new change, then analyzes the latest
// texts once. Diagnostics are only ever published for a document's current version.
//
// Node runs one thing at a time, so an analysis is one stretch of work nothing else can interrupt. What can make one
// long is parsing a long text whole (a first open; rules and models are linear): that parse runs in slices
// (OpenDocument.prepareModel), in the background, and meanwhile the worker analyzes the other dirty documents and
// requests about them are answered between slices. Only requests about the documents of that unit wait for it.
import path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver/node.js';
import type { FileHost, PathMapping } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { ReusableAnalysis } from '../engine/finding-reuse.js';
import type { ParserLike } from '../model/file-loader.js';
import type { NginxParser } from '../parser/loader.js';
import { WholeParses } from './whole-parses.js';
import { isUnder } from '../model/read-scope.js';
import { analyzeUnit, type UnitResult } from './analyze-unit.js';
import { analysisFailedDiagnostic, toDiagnostic, tooLargeDiagnostic } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { deepestFolder } from './paths.js';
import { includeKeyOf, type IncludeGraph } from './include-graph.js';
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
  parser: ParserLike & Pick<NginxParser, 'parseInSlices'>;
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
  /** Each root's latest analysis, which the next one of the same root may reuse (engine/finding-reuse.ts). */
  private readonly latest = new Map<string, ReusableAnalysis>();
  /** Documents edited since the include graph was built: their include lines may have changed. */
  private readonly editedSinceGraph = new Set<OpenDocument>();
  private changes = 0;
  private running = false;
  /** Waiting for the open documents to be analyzed (workspace diagnostics go after them: typing comes first). */
  private idleWaiters: Array<() => void> = [];
  /** Whole parses in slices under way in the background, started by the worker (see the header). */
  private readonly wholeParses: WholeParses;

  constructor(private readonly deps: AnalysisDeps) {
    this.wholeParses = new WholeParses(deps.parser, deps.logError);
  }

  opened(document: OpenDocument): void {
    // The open document's model replaces the one cached for its text on disk.
    this.deps.models.forget(document.path);
    if (!this.deps.index.has(document.path)) this.deps.graph.invalidate();
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
    // Nothing to keep in memory for a closed document (another member of its root only re-runs the rules once).
    this.latest.delete(this.deps.graph.rootFor(document.path));
    // Its text on disk may differ from the unsaved text others were analyzed with.
    this.markDirty(this.affectedBy(document.path));
  }

  /** Files changed on disk (created, changed or deleted): re-analyze the documents that read them. */
  filesChanged(paths: readonly string[], structural: boolean): void {
    // No Dockerfile or compose file among them (watched-files.ts sends those to everythingChanged): the detected nginx
    // versions stand. Forgetting them here made every saved file walk the workspace again.
    for (const file of paths) this.deps.models.forget(file);
    this.deps.graph.invalidate();
    this.markDirty(structural ? this.deps.documents.all() : paths.flatMap((file) => this.affectedBy(file)));
  }

  /** Settings, settings files or workspace folders changed: everything is re-analyzed. */
  everythingChanged(): void {
    this.deps.settings.forgetDetections();
    this.deps.graph.invalidate();
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

  /** The options analyses of `root` run with (fix-all reuses them). */
  analyzeOptionsFor(root: string): AnalyzeOptions {
    const { host, models, settings } = this.deps;
    const readRoots = this.readRootsFor(root);
    return { ...settings.settingsFor(root, readRoots), readRoots, host, models };
  }

  rootFor(document: OpenDocument): string {
    return this.deps.graph.rootFor(document.path);
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

  /** The root a file (open or not) is analyzed under, by the include graph, brought up to date first. */
  rootOfFile(file: string): string {
    this.refreshGraph();
    return this.deps.graph.rootFor(file);
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
        const next = this.nextReady();
        if (next) await this.analyzeSafely(next);
        // Every dirty document waits for a parse in slices: the next one to finish.
        else await this.wholeParses.anyDone();
      }
    } finally {
      this.running = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /**
   * The first dirty document whose unit (by the graph as it stands) needs no whole parse; each one that does has its
   * parses started in the background. Undefined when every dirty document waits for one.
   */
  private nextReady(): OpenDocument | undefined {
    for (const document of this.dirty) {
      if (this.deps.documents.get(document.uri) !== document) return document; // closed: analyze() drops it at once
      const unparsed = this.unitOf(document).filter((member) => member.needsWholeParse);
      if (unparsed.length === 0) return document;
      for (const member of unparsed) this.wholeParses.start(member);
    }
    return undefined;
  }

  /** The open documents analyzed with `document`: those the graph gives its root. */
  private unitOf(document: OpenDocument): OpenDocument[] {
    const root = this.deps.graph.rootFor(document.path);
    return this.deps.documents.all().filter((member) => member === document || (!member.isTooLarge && this.deps.graph.rootFor(member.path) === root));
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
    const version = document.version;
    try {
      await this.analyze(document);
    } catch (error) {
      this.deps.logError(`analysing ${document.uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      // Say so in the document rather than leave the previous version's diagnostics standing as if current.
      const reason = error instanceof Error ? error.message : String(error);
      if (this.deps.documents.get(document.uri) === document) this.deps.publish(document, [analysisFailedDiagnostic(reason)]);
    } finally {
      // Whatever happened, this version was tried: retrying in a loop would only fail again. A newer one (edited
      // while a long text was parsed in slices) was not.
      if (document.version === version) this.dirty.delete(document);
    }
  }

  private async analyze(document: OpenDocument): Promise<void> {
    await this.deps.ready;
    if (this.deps.documents.get(document.uri) !== document) return;
    // Long texts parsed whole are parsed in slices first (the graph reads the edited documents' models too).
    await this.wholeParses.prepare([document, ...this.editedSinceGraph]);
    this.refreshGraph();
    await this.wholeParses.prepare(this.unitOf(document));
    // Edited during a parse: its next analysis starts over (the worker's, since it stays dirty).
    if (this.deps.documents.get(document.uri) !== document || this.unitOf(document).some((member) => member.needsWholeParse)) return;
    if (document.isTooLarge) {
      this.dirty.delete(document);
      this.states.set(document, { snapshot: undefined, unitFiles: new Set([document.path]) });
      this.deps.publish(document, [tooLargeDiagnostic(tooLargeReason(document.text.length, this.deps.settings.editorFor(document.path).maxFileSize))]);
      return;
    }
    const root = this.deps.graph.rootFor(document.path);
    const result = await this.runUnit(root, document);
    if (!result?.snapshots.has(document) && root !== document.path) {
      // The graph was out of date (the includer changed or went away): analyze the document alone for now.
      this.deps.graph.invalidate();
      await this.runUnit(document.path, document);
    }
  }

  private async runUnit(root: string, document: OpenDocument): Promise<UnitResult | undefined> {
    const { documents, graph } = this.deps;
    const members = documents
      .all()
      .filter((member) => member === document || (!member.isTooLarge && graph.rootFor(member.path) === root));
    const result = await analyzeUnit({
      root,
      members,
      host: this.deps.host,
      models: this.deps.models,
      settings: this.deps.settings.settingsFor(root, this.readRootsFor(root)),
      readRoots: this.readRootsFor(root),
      previous: this.latest.get(root),
    });
    if (result) this.latest.set(root, result.analysis);
    else this.latest.delete(root);
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
    const before = new Map(documents.all().map((document) => [document, graph.rootFor(document.path)] as const));
    const folders = this.deps.index.folders;
    const paths = new Set([...this.deps.index.list(), ...documents.all().filter((d) => !d.isTooLarge).map((d) => d.path)]);
    // Grouped by the folder whose settings apply (its pathMap), files outside every folder by the window's.
    const groups = new Map<string, { documents: Array<{ path: string; text: string }>; pathMap: PathMapping[] }>();
    for (const file of paths) {
      const text = this.deps.host.readFile(file);
      if (text === undefined) continue;
      const folder = deepestFolder(file, folders);
      const key = folder ?? '';
      if (!groups.has(key)) {
        const settings = this.deps.settings.settingsForDirectory(folder ?? folders[0] ?? '/', folders.length > 0 ? folders : undefined);
        groups.set(key, { documents: [], pathMap: settings.pathMap ?? [] });
      }
      groups.get(key)!.documents.push({ path: file, text });
    }
    graph.rebuild({
      groups: [...groups.values()],
      host: this.deps.host,
      parser,
      models: this.deps.models,
      readRoots: folders.length > 0 ? [...folders] : undefined,
    });
    this.markDirty([...before].filter(([document, root]) => graph.rootFor(document.path) !== root).map(([document]) => document));
  }

  /** The workspace folders, plus the root's directory when it lies outside them (a file opened from elsewhere). */
  private readRootsFor(root: string): string[] | undefined {
    const folders = this.deps.index.folders;
    if (folders.length === 0) return undefined;
    return folders.some((folder) => isUnder(root, folder)) ? [...folders] : [...folders, path.dirname(root)];
  }
}
