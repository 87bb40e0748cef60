// The names an analysis looked up across roots: every key whose answer came from the whole workspace rather than from
// the asking root alone. A name lookup is the only way one root's findings can depend on another root's text (files
// aside), so this record, together with the names the workspace defines, says exactly when two workspaces analyzed
// apart would have answered differently analyzed together (cli/parallel/conflicts.ts merges those). The lookups
// write it themselves (upstreams.ts), so a new cross-root lookup is recorded by construction, not by a hand list.
//
//   recordLookup(ws, kind, key)    note that an answer depended on every root's definitions of `key`
//   lookedUp(ws)                   the keys noted so far, by kind
//
// Keys are in their comparison form (upstreamKey for upstreams): two spellings nginx treats as one name are one key.
import type { Workspace } from '../model/workspace.js';
import { perWorkspace } from './per-workspace.js';

/** What kind of name was looked up; definitions of the same kind are what can change the answer (cross-root.ts). */
export type LookupKind = 'upstream';

export const LOOKUP_KINDS: readonly LookupKind[] = ['upstream'];

export type KeysByKind = Record<LookupKind, string[]>;

class LookupRecord {
  private readonly keys = new Map<LookupKind, Set<string>>();

  add(kind: LookupKind, key: string): void {
    const keys = this.keys.get(kind);
    if (keys) keys.add(key);
    else this.keys.set(kind, new Set([key]));
  }

  byKind(): KeysByKind {
    return { upstream: [...(this.keys.get('upstream') ?? [])] };
  }
}

// One record per workspace, dropped with it: analyze() builds a fresh workspace per run, so a record never mixes runs.
const recordOf = perWorkspace(() => new LookupRecord());

export function recordLookup(workspace: Workspace, kind: LookupKind, key: string): void {
  recordOf(workspace).add(kind, key);
}

export function lookedUp(workspace: Workspace): KeysByKind {
  return recordOf(workspace).byKind();
}
