// Decides what to analyze when, and publishes the results. Documents are marked dirty by changes (their own, or of a
// file their last analysis read); one worker analyzes dirty documents, one unit at a time (a workspace folder as
// `check .` sees it, or a root file with its includes: analysis-units.ts). A burst of changes is coalesced: the
// worker waits until a turn of the event loop passes without a new change, then analyzes the latest texts once.
// Diagnostics are only ever published for a document's current version.
//
// Node runs one thing at a time, so an analysis is one stretch of work nothing else can interrupt. What can make one
// long is parsing a long text whole (a first open; rules and models are linear): that parse runs in slices
// (OpenDocument.prepareModel), in the background, and meanwhile the worker analyzes the other dirty documents and
// requests about them are answered between slices. Only requests about the documents of that unit wait for it.
import path from 'node:path';
import type { ReusableAnalysis } from '../engine/finding-reuse.js';
import { withNginxParser } from '../parser/loader.js';
import { WholeParses } from './whole-parses.js';
import { PendingWrites } from './pending-writes.js';
import { settled } from './settle.js';
import { analyzeUnit, type UnitResult } from './analyze-unit.js';
import type { AnalysisDeps } from './analysis-deps.js';
import { analysisFailedDiagnostic, tooLargeDiagnostic } from './diagnostics.js';
import { diagnosticsOf } from './diagnostic-reuse.js';
import { refreshIncludeGraph } from './graph-refresh.js';
import { tooLargeReason, type OpenDocument } from './open-document.js';
import type { DocumentSnapshot } from './snapshot.js';
import { UnitLookups } from './unit-lookups.js';

// server.ts makes the service and the listener it is given: both from one import.
export type { ActivityListener } from './analysis-deps.js';

interface DocumentState {
  snapshot: DocumentSnapshot | undefined;
  /** The files the document's last analysis read: a change to any of them makes it dirty. */
  unitFiles: Set<string>;
}

export class AnalysisService extends UnitLookups {
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
  /** Diagnostics sent whose write has not completed (pending-writes.ts says why whenIdle waits for them). */
  private readonly sending = new PendingWrites();
  /** Whole parses in slices under way in the background, started by the worker (see the header). */
  private readonly wholeParses: WholeParses;

  constructor(deps: AnalysisDeps) {
    super(deps);
    this.wholeParses = new WholeParses(deps.parser, deps.logError);
  }

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
    this.wholeParses.provisional.delete(document);
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
    // No Dockerfile or compose file among them (watched-files.ts sends those to everythingChanged): the detected nginx
    // versions stand. Forgetting them here made every saved file walk the workspace again.
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
    if (!this.isCurrent(document)) await withNginxParser(() => this.analyze(document));
    const snapshot = this.states.get(document)?.snapshot;
    return this.deps.documents.get(uri) === document && snapshot?.version === document.version ? snapshot : undefined;
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

  /** Resolves once no open document waits to be analyzed and the diagnostics sent are written to the client. */
  async whenIdle(): Promise<void> {
    while (this.running || this.dirty.size > 0 || this.sending.size > 0) {
      if (this.running || this.dirty.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      else await this.sending.written();
    }
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
    if (this.dirty.size > 0) this.deps.activity?.busy();
    if (this.dirty.size > 0 && !this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // Nothing starts before the settings and the index: a long text's parse started earlier would finish while they
      // load, and its unit would then hold up the others' first analysis.
      await this.deps.ready;
      for (;;) {
        if (this.dirty.size === 0) {
          // Documents analyzed alone while a long text of their unit was parsed: with the parses done, their unit.
          if (!(await this.wholeParses.takeProvisional(this.dirty))) break;
          continue;
        }
        await settled(() => this.changes);
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
      this.deps.activity?.quiet();
    }
  }

  /**
   * The first dirty document that needs no whole parse itself (analyze() runs it alone while its unit waits for one);
   * each one that does has its parse started in the background. Undefined when every dirty document waits for one.
   */
  private nextReady(): OpenDocument | undefined {
    for (const document of this.dirty) {
      if (this.deps.documents.get(document.uri) !== document) return document; // closed: analyze() drops it at once
      if (!document.needsWholeParse) return document;
      this.wholeParses.start(document);
    }
    return undefined;
  }

  /** The open documents analyzed with `document`: those of its unit (analysis-units.ts). */
  private unitOf(document: OpenDocument): OpenDocument[] {
    const key = this.deps.units.keyOf(document.path);
    return this.deps.documents.all().filter((member) => member === document || (!member.isTooLarge && this.deps.units.keyOf(member.path) === key));
  }

  private async analyzeSafely(document: OpenDocument): Promise<void> {
    const version = document.version;
    try {
      await withNginxParser(() => this.analyze(document));
    } catch (error) {
      this.deps.logError(`analysing ${document.uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      // Say so in the document rather than leave the previous version's diagnostics standing as if current.
      const reason = error instanceof Error ? error.message : String(error);
      if (this.deps.documents.get(document.uri) === document) this.sending.add(this.deps.publish(document, [analysisFailedDiagnostic(reason)]));
    } finally {
      // Whatever happened, this version was tried: retrying in a loop would only fail again. A newer one (edited
      // while a long text was parsed in slices) was not.
      if (document.version === version) this.dirty.delete(document);
    }
  }

  private async analyze(document: OpenDocument): Promise<void> {
    await this.deps.ready;
    if (this.deps.documents.get(document.uri) !== document) return;
    await this.wholeParses.prepare([document]);
    // Another long text of its unit (or one the graph must read) is still parsed in slices: the document is analyzed
    // alone meanwhile, so that its diagnostics, hover and completion wait for nothing; its unit's analysis replaces it.
    const waiting = [...this.editedSinceGraph, ...this.unitOf(document)].filter((member) => member !== document && member.needsWholeParse);
    if (waiting.length > 0 && !document.isTooLarge && this.deps.documents.get(document.uri) === document) {
      for (const member of waiting) this.wholeParses.start(member);
      this.wholeParses.provisional.add(document);
      await this.runUnit(document.path, document, true);
      return;
    }
    // The graph reads the edited documents' models too.
    await this.wholeParses.prepare([...this.editedSinceGraph]);
    this.refreshGraph();
    await this.wholeParses.prepare(this.unitOf(document));
    // Edited during a parse: its next analysis starts over (the worker's, since it stays dirty).
    if (this.deps.documents.get(document.uri) !== document || this.unitOf(document).some((member) => member.needsWholeParse)) return;
    if (document.isTooLarge) {
      this.dirty.delete(document);
      this.states.set(document, { snapshot: undefined, unitFiles: new Set([document.path]) });
      this.sending.add(this.deps.publish(document, [tooLargeDiagnostic(tooLargeReason(document.text.length, this.deps.settings.editorFor(document.path).maxFileSize))]));
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

  private async runUnit(key: string, document: OpenDocument, provisional = false): Promise<UnitResult | undefined> {
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
      if (!provisional) this.wholeParses.provisional.delete(member);
      this.sending.add(this.deps.publish(member, diagnosticsOf(member, snapshot.findings)));
    }
    return result;
  }

  /** Rebuilds the include graph when it may be out of date; documents whose unit changed are re-analyzed. */
  private refreshGraph(): void {
    this.markDirty(refreshIncludeGraph(this.deps, this.editedSinceGraph));
  }
}
