// What one batch's analysis depended on beyond its own documents, so batches analyzed apart can be proven
// independent (see parallel/README in analyze-parallel.ts). Analysis couples roots of one workspace in exactly two
// ways today:
//   1. files: a file reached from two batches would be analyzed twice, under different roots and root choices;
//   2. upstream names: a pass whose own root has no `upstream NAME` resolves to every root's (analysis/passes.ts),
//      and a fix naming a new upstream avoids every root's names (fixes/implicit-upstream.ts, `backend_...`).
// Anything else a rule reads (scopes, maps, inherited headers) stays inside one root. A new cross-root lookup in
// analysis must be added here, or --jobs would silently differ from a single-threaded run; test/cli/jobs.test.ts
// compares the two on the corpus and on hand-made cross-file cases.
import { passes } from '../../analysis/passes.js';
import { findUpstreams, upstreamKey, upstreams } from '../../analysis/upstreams.js';
import { FileIdentities } from '../../model/file-identity.js';
import type { Workspace } from '../../model/workspace.js';

export interface Footprint {
  /**
   * Every file the workspace parsed, by real path: a batch reaching sites-enabled/app.conf and one checking its
   * target sites-available/app.conf share that file, and must be analyzed together to report it once.
   */
  files: string[];
  /** Keys of every http upstream{} defined. */
  defines: string[];
  /** Keys of pass hosts whose own root defines no such upstream: another batch's definition would change them. */
  needs: string[];
  /** Some pass had no upstream in its root: a fix may generate a `backend_...` name, avoiding all defined ones. */
  generates: boolean;
}

/** Prefix of the names fixes/implicit-upstream.ts generates. */
export const GENERATED_UPSTREAM_PREFIX = 'backend_';

export function footprintOf(workspace: Workspace): Footprint {
  const identities = new FileIdentities();
  const defines = new Set(upstreams(workspace).map((upstream) => upstream.key));
  const needs = new Set<string>();
  for (const pass of passes(workspace)) {
    const host = pass.target?.host;
    if (host === undefined) continue;
    const inOwnRoot = findUpstreams(workspace, host).some((upstream) =>
      upstream.bodies.some((body) => body.root === pass.scope.root),
    );
    if (!inOwnRoot) needs.add(upstreamKey(host));
  }
  return {
    files: workspace.files.map((file) => identities.of(file.path)),
    defines: [...defines],
    needs: [...needs],
    generates: needs.size > 0,
  };
}
