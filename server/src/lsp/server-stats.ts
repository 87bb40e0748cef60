// `nginxKeepalive/stats`: what the server holds, for tests and benchmarks (open documents, tree-sitter trees, memory,
// workspace analyses). Not a feature for users; no client asks for it unprompted.
import { nginxParserLoaded } from '../parser/loader.js';
import type { OpenDocuments } from './documents.js';
import type { WorkspaceDiagnostics } from './workspace-diagnostics.js';

export const STATS_REQUEST = 'nginxKeepalive/stats';

export interface ServerStats {
  openDocuments: number;
  /** Tree-sitter trees alive (one per open document that keeps one: templates); 0 once every document is closed. */
  liveTrees: number;
  /** Whether the wasm parser was loaded: only once a document the text reader declines needed it (lsp/server.ts). */
  parserLoaded: boolean;
  rssBytes: number;
  /** V8 heap in use (garbage not yet collected included) and memory outside it (wasm, buffers). */
  heapUsedBytes: number;
  externalBytes: number;
  /** Units (a root and its includes) analyzed for workspace diagnostics since start (unchanged ones are not). */
  workspaceAnalyses: number;
  /** Garbage collections the server ran once typing paused (lsp/idle-collection.ts; none in a web worker). */
  idleCollections: number;
}

export function serverStats(documents: OpenDocuments, workspace: WorkspaceDiagnostics | undefined, idleCollections = 0): ServerStats {
  const memory = process.memoryUsage();
  return {
    ...documents.stats(),
    parserLoaded: nginxParserLoaded(),
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    externalBytes: memory.external,
    workspaceAnalyses: workspace?.unitsAnalyzed ?? 0,
    idleCollections,
  };
}
