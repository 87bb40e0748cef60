// The scope tree: each root's configuration as nginx assembles it, one Scope per block instance with includes
// expanded inline. Rules reason about levels (http > server > location > if), not files, so they read this.
//
//   scopeTree(ws)          one top-level Scope per workspace root (block undefined), in root order
//   allScopes(ws)          every Scope, pre-order (a parent before its children, siblings in nginx order)
//   scopeOf(ws, d)         the Scopes whose statements hold d: one per place d's file is included
//   scopesOpenedBy(ws, d)  the Scopes d's block opens: likewise one per place
//   guardsWithin(d, s)     the template guards making d conditional inside s (those not also enclosing s's block)
//   unfollowedIncludes(s)  the includes of s pulled in nothing (missing, outside, templated, a glob matching none)
//   outsideHttp(s)         s is at or under stream {} or mail {}: another module's directives of the same names
//   scopeView(ws, left)    ws as if the blocks left(d) picks were not there: a workspace whose every index (scopes,
//                          passes, upstreams) leaves them out (the language server's linked re-run, engine/linked-blocks.ts)
//
// Built once per workspace (cached in a WeakMap, the model is immutable) by replaying each root's expansion as
// walkEffective does, so include expansion, cycle cuts and limits are the workspace's own.
import { contextOpenedBy } from '../model/context.js';
import type { ContextName, Directive, TemplateGuard } from '../model/types.js';
import { expandRoot, type ExpansionHooks } from '../model/expand.js';
import type { Workspace, WorkspaceRoot } from '../model/workspace.js';
import { perWorkspace } from './per-workspace.js';
import { MemoMap } from '../util/memo-map.js';

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
  /** Built on first use: the rules never ask it, and a map entry for every statement is a cost of its own. */
  byStatement: Map<Directive, Scope[]> | undefined;
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

/** An include that pulled files in: its files' directives take its place among the statements. */
function isExpanded(directive: Directive, root: WorkspaceRoot): boolean {
  return directive.name === 'include' && (root.includes.get(directive)?.length ?? 0) > 0;
}

/**
 * The effective walk with the scope each directive sits in: `visit` gets every directive and that scope, `open`
 * returns the scope a block directive opens (its statements are visited next).
 */
function walkScopes(
  workspace: Workspace,
  topOf: (root: WorkspaceRoot) => Scope,
  visit: (directive: Directive, scope: Scope, root: WorkspaceRoot) => void,
  open: (directive: Directive, scope: Scope, inner: ContextName, root: WorkspaceRoot) => Scope,
  left?: (directive: Directive) => boolean,
): void {
  // walkEffective's replay of each root, without the per-block scope objects it makes for its visitors: this walk
  // runs on every analysis and visits every directive.
  for (const root of workspace.roots) {
    // stack[i]: the scope at block depth i on the walk's current path (depth-first, so a block's scope is open while
    // its children are visited). Deeper entries left from an earlier block are never read: the expansion enters a
    // block's children only where contextOpenedBy opened it, and then stack[depth + 1] was just set for it.
    const stack: Scope[] = [topOf(root)];
    const hooks: ExpansionHooks = {
      resolve: (include) => root.includes.get(include) ?? [],
      visit: (directive, where) => {
        // A block left out of a view is neither a statement nor a scope, and nothing under it is walked.
        if (left?.(directive)) return false;
        // No truncation needed: a directive at depth d sits in the block last opened at d - 1, which set stack[d].
        const depth = where.depth;
        const scope = stack[depth]!;
        visit(directive, scope, root);
        const inner = contextOpenedBy(directive, where.context);
        if (inner) stack[depth + 1] = open(directive, scope, inner, root);
      },
    };
    expandRoot(root.file, root.context, hooks, workspace.limits);
  }
}

function buildIndex(workspace: Workspace, left?: (directive: Directive) => boolean): ScopeIndex {
  const tops = new Map(workspace.roots.map((root) => [root, newScope(undefined, root.context, undefined, root)]));
  const index: ScopeIndex = { tops: [...tops.values()], all: [], byStatement: undefined, byBlock: new Map() };
  walkScopes(
    workspace,
    (root) => tops.get(root)!,
    (directive, scope, root) => {
      if (!isExpanded(directive, root)) scope.statements.push(directive);
    },
    (directive, scope, inner, root) => {
      const child = newScope(directive, inner, scope, root);
      scope.children.push(child);
      addTo(index.byBlock, directive, child);
      return child;
    },
    left,
  );
  const collect = (scope: Scope): void => {
    index.all.push(scope);
    scope.children.forEach(collect);
  };
  index.tops.forEach(collect);
  return index;
}

const builtIndex = perWorkspace((workspace) => buildIndex(workspace));
/** Views' indexes, built with them; a view's statement index (scopeOf) replays the walk with the same blocks left out. */
const views = new WeakMap<Workspace, { index: ScopeIndex; left: (directive: Directive) => boolean }>();

function indexOf(workspace: Workspace): ScopeIndex {
  return views.get(workspace)?.index ?? builtIndex(workspace);
}

/**
 * `workspace` with the blocks `left` says (and everything under them) taken out of its scope tree: a new workspace
 * object, so every index derived from the scopes is derived afresh for it. Its files and includes are the
 * workspace's own.
 */
export function scopeView(workspace: Workspace, left: (directive: Directive) => boolean): Workspace {
  const view: Workspace = { ...workspace };
  views.set(view, { index: buildIndex(view, left), left });
  return view;
}

export function scopeTree(workspace: Workspace): readonly Scope[] {
  return indexOf(workspace).tops;
}

export function allScopes(workspace: Workspace): readonly Scope[] {
  return indexOf(workspace).all;
}

/** Replays the walk over the scopes already built, so each directive's scopes are listed in the walk's order. */
function indexStatements(workspace: Workspace, index: ScopeIndex): Map<Directive, Scope[]> {
  const byStatement = new Map<Directive, Scope[]>();
  const opened = new Map<Scope, number>();
  const tops = new Map(index.tops.map((top) => [top.root, top]));
  walkScopes(
    workspace,
    (root) => tops.get(root)!,
    (directive, scope, root) => {
      if (!isExpanded(directive, root)) addTo(byStatement, directive, scope);
    },
    (_directive, scope) => {
      const next = opened.get(scope) ?? 0;
      opened.set(scope, next + 1);
      return scope.children[next]!;
    },
    views.get(workspace)?.left,
  );
  return byStatement;
}

export function scopeOf(workspace: Workspace, directive: Directive): readonly Scope[] {
  const index = indexOf(workspace);
  index.byStatement ??= indexStatements(workspace, index);
  return index.byStatement.get(directive) ?? EMPTY;
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
const statementIndexes = new MemoMap<Scope, Map<string, Directive[]>>();

/** Levels this small are scanned: building a name index for each of thousands of small blocks costs more. */
const SCAN_LIMIT = 8;

/** The level's own statements called `name`, in nginx order (shared: do not mutate). */
export function statementsNamed(scope: Scope, name: string): readonly Directive[] {
  if (scope.statements.length <= SCAN_LIMIT) return scanNamed(scope.statements, name);
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

function scanNamed(statements: readonly Directive[], name: string): readonly Directive[] {
  let found: Directive[] | undefined;
  for (const statement of statements) {
    if (statement.name === name) (found ??= []).push(statement);
  }
  return found ?? EMPTY_DIRECTIVES;
}

export function unfollowedIncludes(scope: Scope): readonly Directive[] {
  return statementsNamed(scope, 'include');
}

/** At or under `stream {}` or `mail {}`: a proxy_pass there is another module's directive, an upstream another kind. */
export function outsideHttp(scope: Scope): boolean {
  for (let level: Scope | undefined = scope; level; level = level.parent) {
    if (level.context === 'stream' || level.context === 'mail') return true;
  }
  return false;
}
