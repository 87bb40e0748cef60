// What one batch's analysis shared with other batches, so batches analyzed apart can be proven independent (see
// analyze-parallel.ts). Two workspaces couple in exactly two ways:
//   1. files: a file reached from two batches would be analyzed twice, under different roots and root choices;
//   2. names: a lookup answered from every root (an upstream a pass's own root lacks, a name a fix generates) may
//      change when another batch defines that key. The analysis records those lookups as it makes them
//      (analysis/lookup-record.ts), so nothing here lists them by hand.
import { crossRootKeys, type CrossRootKeys } from '../../analysis/cross-root.js';
import { FileIdentities } from '../../model/file-identity.js';
import type { Workspace } from '../../model/workspace.js';
import type { SourceDocument } from '../../util/types.js';

export interface Footprint extends CrossRootKeys {
  /**
   * Every file the workspace parsed, by real path: a batch reaching sites-enabled/app.conf and one checking its
   * target sites-available/app.conf share that file, and must be analyzed together to report it once.
   */
  files: string[];
}

/**
 * Read after the rules ran: lookups are recorded as they happen. A document's real path is the one discovery found
 * (as the workspace's file loader takes it): only the files the documents include are looked up on disk.
 */
export function footprintOf(workspace: Workspace, documents: readonly SourceDocument[] = []): Footprint {
  const identities = new FileIdentities();
  for (const document of documents) if (document.realPath !== undefined) identities.known(document.path, document.realPath);
  return { files: workspace.files.map((file) => identities.of(file.path)), ...crossRootKeys(workspace) };
}
