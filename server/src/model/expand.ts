// One depth-first walk of a root with its includes spliced in place, as nginx reads it. Both building the workspace
// (which resolves includes as it meets them) and walkEffective (which replays the recorded edges) use it, so the two
// agree on which includes are followed, where cycles are cut and where the limits stop the walk.
import { contextOpenedBy } from './context.js';
import { MAX_NESTING_DEPTH } from './nesting-limit.js';
import type { ConfigFile, ContextName, Directive } from './types.js';

export interface IncludeLimits {
  /** Included file instances per root (a file included twice counts twice). */
  maxIncludedFiles: number;
  /** Nested includes per chain. */
  maxDepth: number;
}

export const DEFAULT_INCLUDE_LIMITS: IncludeLimits = { maxIncludedFiles: 10_000, maxDepth: 100 };

export interface ExpansionScope {
  /** The context the directive sits in. */
  context: ContextName;
  /** Enclosing block directives, outermost first, across include boundaries. */
  ancestors: readonly Directive[];
  /** The include directives that spliced this directive's file in, outermost first (empty in the root file). */
  includedFrom: readonly Directive[];
}

export interface ExpansionHooks {
  /** The files an include directive pulls in, in order; [] for a directive that is not a followable include. */
  resolve(include: Directive): readonly ConfigFile[];
  /** Return false to skip the directive's block and, for an include, its expansion. */
  visit?(directive: Directive, scope: ExpansionScope): boolean | void;
  /** An include not followed: its target is already on the include chain, or a limit was reached. */
  cut?(include: Directive, kind: 'cycle' | 'limit', target: ConfigFile): void;
}

class Expansion {
  private readonly chain = new Set<ConfigFile>();
  private includedFiles = 0;

  constructor(
    private readonly hooks: ExpansionHooks,
    private readonly limits: IncludeLimits,
  ) {}

  file(file: ConfigFile, scope: ExpansionScope): void {
    // Resolving includes only (no visitor): a file without one has nothing to resolve, however large its blocks.
    if (this.hooks.visit === undefined && !holdsInclude(file)) return;
    this.chain.add(file);
    this.directives(file.directives, scope);
    this.chain.delete(file);
  }

  private directives(directives: readonly Directive[], scope: ExpansionScope): void {
    const visit = this.hooks.visit;
    for (const directive of directives) {
      if (visit && visit(directive, scope) === false) continue;
      if (directive.name === 'include') this.include(directive, scope);
      // Most directives have no block: ask for the context only of those with statements inside.
      const inner = directive.children.length > 0 ? contextOpenedBy(directive, scope.context) : undefined;
      if (inner) {
        const ancestors = [...scope.ancestors, directive];
        this.directives(directive.children, { context: inner, ancestors, includedFrom: scope.includedFrom });
      }
    }
  }

  private include(include: Directive, scope: ExpansionScope): void {
    const includedFrom = [...scope.includedFrom, include];
    const includedScope = { context: scope.context, ancestors: scope.ancestors, includedFrom };
    for (const target of this.hooks.resolve(include)) {
      if (this.chain.has(target)) {
        this.hooks.cut?.(include, 'cycle', target);
      } else if (
        this.includedFiles >= this.limits.maxIncludedFiles ||
        includedScope.includedFrom.length > this.limits.maxDepth ||
        // Each file's own nesting is bounded (nesting-limit.ts); this bounds the nesting an include chain adds up to.
        scope.ancestors.length >= MAX_NESTING_DEPTH
      ) {
        this.hooks.cut?.(include, 'limit', target);
      } else {
        this.includedFiles++;
        this.file(target, includedScope);
      }
    }
  }
}

/** Whether a file has an `include` at any depth; a file is immutable once built, so each is searched once. */
function holdsInclude(file: ConfigFile): boolean {
  let holds = includeHolders.get(file);
  if (holds === undefined) {
    holds = false;
    const pending: Array<readonly Directive[]> = [file.directives];
    while (!holds && pending.length > 0) {
      for (const directive of pending.pop()!) {
        if (directive.name === 'include') holds = true;
        else if (directive.children.length > 0) pending.push(directive.children);
      }
    }
    includeHolders.set(file, holds);
  }
  return holds;
}

const includeHolders = new WeakMap<ConfigFile, boolean>();

export function expandRoot(
  root: ConfigFile,
  context: ContextName,
  hooks: ExpansionHooks,
  limits: IncludeLimits = DEFAULT_INCLUDE_LIMITS,
): void {
  new Expansion(hooks, limits).file(root, { context, ancestors: [], includedFrom: [] });
}
