// What a workspace's analysis shares with other workspaces through names: the keys it defines and the keys it looked
// up across roots (lookup-record.ts). Workspace A depends on workspace B exactly when A looked up a key B defines;
// read this after the rules ran, since lookups are recorded as they happen.
//
//   crossRootKeys(ws)    { defines, lookedUp }, each by kind
import type { Workspace } from '../model/workspace.js';
import { lookedUp, type KeysByKind, type LookupKind } from './lookup-record.js';
import { upstreams } from './upstreams.js';

export interface CrossRootKeys {
  defines: KeysByKind;
  lookedUp: KeysByKind;
}

// Every kind a lookup can record must say what defines it: the type makes a new kind without one a compile error.
// Read from the full index, not from what the rules happened to ask: a definition nobody asked for still answers
// another workspace's lookup.
const DEFINED: { [K in LookupKind]: (workspace: Workspace) => string[] } = {
  upstream: (workspace) => [...new Set(upstreams(workspace).map((upstream) => upstream.key))],
};

export function crossRootKeys(workspace: Workspace): CrossRootKeys {
  return { defines: { upstream: DEFINED.upstream(workspace) }, lookedUp: lookedUp(workspace) };
}
