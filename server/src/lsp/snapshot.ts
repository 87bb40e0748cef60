// What the language features (hover, definitions, symbols, semantic tokens) read about a document: the model and
// findings of its latest analysis. Headless types only, so the features stay testable without a connection.
import type { Finding } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { ConfigFile } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';

export interface DocumentSnapshot {
  uri: string;
  /** The editor's document version the snapshot was computed for. */
  version: number;
  /** Absolute file system path of the document. */
  path: string;
  text: string;
  /** The document's model inside `workspace` (analyzed in its includer's context when another file includes it). */
  file: ConfigFile;
  workspace: Workspace;
  findings: Finding[];
  options: AnalyzeOptions;
}

/** The snapshot of an open document's current version; undefined when the document is not open (or not nginx). */
export type SnapshotProvider = (uri: string) => Promise<DocumentSnapshot | undefined>;
