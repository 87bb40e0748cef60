// What the analysis service (analysis-service.ts) is given: the stores it reads, the parser, and where its results
// and its busy/quiet changes go. Its own module so that the modules the service hands these to (graph-refresh.ts,
// unit-lookups.ts) need not import the service.
import type { Diagnostic } from 'vscode-languageserver/node.js';
import type { FileHost } from '../util/types.js';
import type { ParserLike } from '../model/file-loader.js';
import type { NginxParser } from '../parser/loader.js';
import type { AnalysisUnits } from './analysis-units.js';
import type { OpenDocuments } from './documents.js';
import type { IncludeGraph } from './include-graph.js';
import type { ModelStore } from './model-store.js';
import type { OpenDocument } from './open-document.js';
import type { SettingsStore } from './settings-store.js';
import type { WorkspaceIndex } from './workspace-index.js';

export interface AnalysisDeps {
  documents: OpenDocuments;
  models: ModelStore;
  host: FileHost;
  settings: SettingsStore;
  index: WorkspaceIndex;
  graph: IncludeGraph;
  units: AnalysisUnits;
  parser: ParserLike & Pick<NginxParser, 'parseInSlices'>;
  /** Resolves once settings and the workspace index are loaded: nothing is analyzed with half the settings. */
  ready: Promise<void>;
  /**
   * Sends (or keeps, for a client that pulls) an open document's diagnostics; a send answers its write's promise,
   * which whenIdle waits for.
   */
  publish(document: OpenDocument, diagnostics: Diagnostic[]): Promise<unknown> | void;
  logError(message: string): void;
  /** Told when analyses become due and when none is left (node's idle collection, lsp/idle-collection.ts). */
  activity?: ActivityListener;
}

export interface ActivityListener {
  /** An analysis is due (a change, an open): work waiting for a pause is not run now. */
  busy(): void;
  /** Every due analysis is done: a pause starts. */
  quiet(): void;
  /** Garbage collections run in pauses so far (nginxKeepalive/stats). */
  readonly collections?: number;
}
