// `prove`'s sandbox and nginx's dynamic modules: a `load_module` the local nginx cannot satisfy is left out
// (engine/sandbox-config.ts), and the directives of that module nginx -t then does not know are named to the next
// build as `dropped` (cli/prove/sandbox-run.ts). Each is left out too, and the location holding it is not measured:
// without its module it is not the location the user runs.
import path from 'node:path';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { quote, where } from './sandbox-edits.js';

/** A load_module line in the sandbox: the local module's path, else nothing; `missing` names what was left out. */
export function moduleLine(directive: Directive, resolve: ((argument: string) => string | undefined) | undefined): { text: string; missing?: string } {
  const argument = directive.args[0];
  const local = argument && !argument.templated ? resolve?.(argument.value) : undefined;
  if (local !== undefined) return { text: `load_module ${quote(local)};` };
  return { text: '', missing: `${where(directive)}: load_module ${argument?.value ?? ''}` };
}

/** The key nginx's `unknown directive "name" in file:line` gives a directive (the copy's path is the original's, absolute). */
export function droppedKey(directive: Directive): string {
  return `${path.resolve(directive.file.path)}:${directive.span.start.line + 1}:${directive.name}`;
}

function taint(directives: readonly Directive[], dropped: ReadonlyMap<string, string>, tainted: Map<Directive, string>): void {
  for (const directive of directives) {
    const reason = dropped.get(droppedKey(directive));
    if (reason !== undefined) {
      let location = directive.parent;
      while (location && location.name !== 'location') location = location.parent;
      if (location && !tainted.has(location)) tainted.set(location, reason);
    }
    taint(directive.children, dropped, tainted);
  }
}

/** The location around each dropped directive -> its reason (a dropped directive outside a location marks none). */
export function taintedLocations(workspace: Workspace, dropped: ReadonlyMap<string, string> | undefined): Map<Directive, string> {
  const tainted = new Map<Directive, string>();
  for (const file of dropped && dropped.size > 0 ? workspace.files : []) taint(file.directives, dropped!, tainted);
  return tainted;
}

/** The directive `key` names and whether it sits in a location (only then can its location be left unmeasured). */
export function droppedDirective(workspace: Workspace, key: string): { inLocation: boolean } | undefined {
  const find = (directives: readonly Directive[]): Directive | undefined => {
    for (const directive of directives) {
      if (droppedKey(directive) === key) return directive;
      const inner = find(directive.children);
      if (inner) return inner;
    }
    return undefined;
  };
  for (const file of workspace.files) {
    const directive = find(file.directives);
    if (!directive) continue;
    let parent = directive.parent;
    while (parent && parent.name !== 'location') parent = parent.parent;
    return { inLocation: parent !== undefined };
  }
  return undefined;
}
