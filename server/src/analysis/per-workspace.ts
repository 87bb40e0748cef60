// Analysis indexes (scopes, upstreams, passes) are built once per workspace and shared by every rule; the WeakMap
// lets a workspace and its indexes be collected together.
import type { Workspace } from '../model/workspace.js';

export function perWorkspace<T>(build: (workspace: Workspace) => T): (workspace: Workspace) => T {
  const cache = new WeakMap<Workspace, T>();
  return (workspace) => {
    let value = cache.get(workspace);
    if (value === undefined) {
      value = build(workspace);
      cache.set(workspace, value);
    }
    return value;
  };
}
