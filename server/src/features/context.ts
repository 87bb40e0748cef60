// What every language feature reads: the document's model inside its workspace, and the analysis options (for the
// target nginx version). A DocumentSnapshot (lsp/snapshot.ts) is one; tests build one from analyzeWorkspace().
import { resolveOptions } from '../engine/options.js';
import type { ResolvedOptions, Span } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { ConfigFile } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';

export interface FeatureContext {
  workspace: Workspace;
  /** The document the request is about (one of workspace.files). */
  file: ConfigFile;
  options: AnalyzeOptions;
}

/** A place in some file of the workspace (a definition, a reference). */
export interface FeatureLocation {
  file: ConfigFile;
  span: Pick<Span, 'startOffset' | 'endOffset'>;
}

/** The rules' view of the options; a malformed nginx version (already reported by the server) means the default. */
export function featureOptions(options: AnalyzeOptions): ResolvedOptions {
  try {
    return resolveOptions(options);
  } catch {
    return resolveOptions({});
  }
}
