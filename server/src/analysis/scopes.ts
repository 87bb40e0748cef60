// The scope tree: each root's configuration as nginx assembles it, one Scope per block instance with includes
// expanded inline. Rules reason about levels (http > server > location > if), not files, so they read this.
//
//   scopeTree(ws)          one top-level Scope per workspace root (block undefined), in root order
//   allScopes(ws)          every Scope, pre-order (a parent before its children, siblings in nginx order)
//   scopeOf(ws, d)         the Scopes whose statements hold d: one per place d's file is included
//   scopesOpenedBy(ws, d)  the Scopes d's block opens: likewise one per place
//   guardsWithin(d, s)     the template guards making d conditional inside s (those not also enclosing s's block)
//   unfollowedIncludes(s)  the includes of s pulled in nothing (missing, outside, templated, a glob matching none)
//
// Built once per workspace (cached in a WeakMap, the model is immutable) from walkEffective, so include expansion,
// cycle cuts and limits are the workspace's own.
import { contextOpenedBy } from '../model/context.js';
import type { ContextName, Directive, TemplateGuard } from '../model/types.js';
import { walkEffective, type Workspace, type WorkspaceRoot } from '../model/workspace.js';
import { perWorkspace } from './per-workspace.js';

export interface Scope {
  /** The block directive opening this scope; undefined for a root's top level. */
  block: Directive | undefined;
  context: ContextName;
  parent: Scope | undefined;
  /**
   * This level's simple and block directives in nginx order. An include that resolved to files is replaced by their
   * directives (one then cut as a cycle or by the limits simply vanishes: the include rule reports it); one that
   * resolved to none stays, so a rule can tell this level may hold more than it sees.
   */
  statements: Directive[];
  /** Scopes opened by block directives among `statements`, in order. */
  children: Scope[];
  root: WorkspaceRoot;
}

interface ScopeIndex {
  tops: Scope[];
  all: Scope[];
  byStatement: Map<Directive, Scope[]>;
  byBlock: Map<Directive, Scope[]>;
}

const EMPTY: readonly Scope[] = [];

function newScope(block: Directive | undefined, context: ContextName, parent: Scope | undefined, root: WorkspaceRoot): Scope {
  return { block, context, parent, statements: [], children: [], root };
}

function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function buildIndex(workspace: Workspace): ScopeIndex {
  const tops = new Map(workspace.roots.map((root) => [root, newScope(undefined, root.context, undefined, root)]));
  const index: ScopeIndex = { tops: [...tops.values()], all: [], byStatement: new Map(), byBlock: new Map() };
  let currentRoot: WorkspaceRoot | undefined;
  // open[i]: the scope at block depth i on the walk's current path (depth-first, so a block's scope is open while its
  // children are visited).
  let open: Scope[] = [];
  walkEffective(workspace, (directive, where) => {
    if (where.root !== currentRoot) {
      currentRoot = where.root;
      open = [tops.get(where.root)!];
    }
    const depth = where.ancestors.length;
    open.length = depth + 1;
    const scope = open[depth]!;
    const expanded = (where.root.includes.get(directive)?.length ?? 0) > 0;
    if (!expanded) {
      scope.statements.push(directive);
      addTo(index.byStatement, directive, scope);
    }
    const inner = contextOpenedBy(directive, where.context);
    if (inner) {
      const child = newScope(directive, inner, scope, where.root);
      scope.children.push(child);
      addTo(index.byBlock, directive, child);
      open[depth + 1] = child;
    }
  });
  const collect = (scope: Scope): void => {
    index.all.push(scope);
    scope.children.forEach(collect);
  };
  index.tops.forEach(collect);
  return index;
}

const indexOf = perWorkspace(buildIndex);

export function scopeTree(workspace: Workspace): readonly Scope[] {
  return indexOf(workspace).tops;
}

export function allScopes(workspace: Workspace): readonly Scope[] {
  return indexOf(workspace).all;
}

export function scopeOf(workspace: Workspace, directive: Directive): readonly Scope[] {
  return indexOf(workspace).byStatement.get(directive) ?? EMPTY;
}

export function scopesOpenedBy(workspace: Workspace, directive: Directive): readonly Scope[] {
  return indexOf(workspace).byBlock.get(directive) ?? EMPTY;
}

/**
 * Template guards under which `directive` appears inside `scope` but which do not also enclose the scope's block: a
 * `{{ if }}` around the whole `upstream` is not a condition *within* it. Guards are tracked per file, so a statement
 * from an included file reports all of its own guards (and not those around the include).
 */
export function guardsWithin(directive: Directive, scope: Scope): TemplateGuard[] {
  const block = scope.block;
  if (!block || block.file !== directive.file) return directive.guards;
  return directive.guards.filter((guard) => !block.guards.includes(guard));
}

// An http level can hold thousands of statements and every location asks it for a few names: index each level once.
const statementIndexes = new WeakMap<Scope, Map<string, Directive[]>>();

/** The level's own statements called `name`, in nginx order (shared: do not mutate). */
export function statementsNamed(scope: Scope, name: string): readonly Directive[] {
  let index = statementIndexes.get(scope);
  if (!index) {
    index = new Map();
    for (const statement of scope.statements) {
      const list = index.get(statement.name);
      if (list) list.push(statement);
      else index.set(statement.name, [statement]);
    }
    statementIndexes.set(scope, index);
  }
  return index.get(name) ?? EMPTY_DIRECTIVES;
}

const EMPTY_DIRECTIVES: readonly Directive[] = [];

export function unfollowedIncludes(scope: Scope): readonly Directive[] {
  return statementsNamed(scope, 'include');
}
