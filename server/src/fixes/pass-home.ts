// Where a fix may add a proxy setting for one pass: the pass's "home", the nearest enclosing `location`.
//
//   passHome(pass)                   { location, anchor } or undefined (a pass outside any location: nothing safe)
//   holdsPass(scope, name)          a pass `name` sits in scope or its if/limit_except blocks
//   isOwnLevel(level, pass, home)    `level` is the pass's scope or lies between it and its home location
//   lineFixPlan(ws, pass, name, ...) how a one-value setting is fixed for the pass: rewrite, insert, or nothing
//
// proxy_http_version and proxy_set_header are valid in http, server and location, not in `if` or `limit_except`
// (where proxy_pass is allowed), so a pass inside `if (...) { }` is fixed in the location around it; the `if` block
// inherits from that location. `anchor` is the statement of the location a new line goes before: the first one that
// is or holds a pass of the same kind (proxy_pass, fastcgi_pass, ...) under the same template guards as the pass's
// own statement. Every pass with the same home (and guards) gets the same anchor, so fixes computed for two passes of
// one location insert at one offset and merge (edit-set.ts) instead of adding a duplicate directive nginx rejects;
// passes in different branches of a `{{ if }}/{{ else }}` each get the line in their own branch, which is the only
// one rendered with them.
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { hiddenOnlyAbove } from '../analysis/effective-lookup.js';
import { refusal } from './placement.js';
import type { Pass } from '../analysis/passes.js';
import { guardsWithin, type Scope } from '../analysis/scopes.js';

export interface PassHome {
  location: Scope;
  /** A statement of `location`: the first pass of the same directive, or the first block holding one. */
  anchor: Directive;
}

/** `scope` holds a `name` pass directly or in an `if` / `limit_except` (not in a nested location: it has its own home). */
export function holdsPass(scope: Scope, name: string): boolean {
  return (
    scope.statements.some((statement) => statement.name === name) ||
    scope.children.some((child) => child.context !== 'location' && holdsPass(child, name))
  );
}

function sameGuards(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((guard, i) => guard === b[i]);
}

function firstPassStatement(location: Scope, name: string, own: Directive): Directive | undefined {
  const blocks = new Map(location.children.map((child) => [child.block, child] as const));
  const guards = guardsWithin(own, location);
  return location.statements.find((statement) => {
    if (!sameGuards(guardsWithin(statement, location), guards)) return false;
    if (statement.name === name) return true;
    const child = blocks.get(statement);
    // A nested location has a home of its own; `if` and `limit_except` bodies belong to this one.
    return child !== undefined && child.context !== 'location' && holdsPass(child, name);
  });
}

export function passHome(pass: Pass): PassHome | undefined {
  let scope: Scope | undefined = pass.scope;
  let statement: Directive | undefined = pass.directive;
  while (scope && scope.context !== 'location') {
    statement = scope.block;
    scope = scope.parent;
  }
  if (!scope || !statement) return undefined;
  return { location: scope, anchor: firstPassStatement(scope, pass.name, statement) ?? statement };
}

/** True when `level` is the pass's scope or lies between it and `home.location` (inclusive): the pass's own block. */
export function isOwnLevel(level: Scope, pass: Pass, home: PassHome): boolean {
  for (let current: Scope | undefined = pass.scope; current; current = current.parent) {
    if (current === level) return true;
    if (current === home.location) return false;
  }
  return false;
}

/** A one-value setting's state as proxy-state.ts gives it: failing kinds, `unknown`, or fine. */
interface SettingState {
  kind: string;
  definition?: { level: Scope };
}

/**
 * How a fix sets a one-value directive (`proxy_http_version`, `fastcgi_keep_conn`) for `pass`, decided without
 * writing it: rewrite the bad value where it is written when that is the pass's own level, insert a line in its
 * location, or nothing (the state is fine, no location, a level placement.ts refuses). An `unknown` hidden only above
 * the location (an include there that could not be read) is fixed too: the location's own line wins.
 */
export function lineFixPlan(
  workspace: Workspace,
  pass: Pass,
  name: string,
  state: SettingState,
  failing: { missing: string; explicit: string },
): 'rewrite' | 'insert' | undefined {
  const home = passHome(pass);
  if (!home) return undefined;
  const hiddenAbove = state.kind === 'unknown' && hiddenOnlyAbove(workspace, pass.scope, home.location, name);
  if (state.kind !== failing.missing && state.kind !== failing.explicit && !hiddenAbove) return undefined;
  if (state.kind === failing.explicit && state.definition && isOwnLevel(state.definition.level, pass, home)) return 'rewrite';
  return refusal(home.location, name) ? undefined : 'insert';
}
