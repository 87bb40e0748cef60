// One depth-first walk of a root with its includes spliced in place, as nginx reads it. Both building the workspace
// (which resolves includes as it meets them) and walkEffective (which replays the recorded edges) use it, so the two
// agree on which includes are followed, where cycles are cut and where the limits stop the walk.
import { contextOpenedBy } from './context.js';
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
    this.chain.add(file);
    this.directives(file.directives, scope);
    this.chain.delete(file);
  }

  private directives(directives: readonly Directive[], scope: ExpansionScope): void {
    for (const directive of directives) {
      if (this.hooks.visit?.(directive, scope) === false) continue;
      if (directive.name === 'include') this.include(directive, scope);
      const inner = contextOpenedBy(directive, scope.context);
      if (inner && directive.children.length > 0) {
        this.directives(directive.children, { ...scope, context: inner, ancestors: [...scope.ancestors, directive] });
      }
    }
  }

  private include(include: Directive, scope: ExpansionScope): void {
    const includedScope = { ...scope, includedFrom: [...scope.includedFrom, include] };
    for (const target of this.hooks.resolve(include)) {
      if (this.chain.has(target)) {
        this.hooks.cut?.(include, 'cycle', target);
      } else if (this.includedFiles >= this.limits.maxIncludedFiles || includedScope.includedFrom.length > this.limits.maxDepth) {
        this.hooks.cut?.(include, 'limit', target);
      } else {
        this.includedFiles++;
        this.file(target, includedScope);
      }
    }
  }
}

export function expandRoot(
  root: ConfigFile,
  context: ContextName,
  hooks: ExpansionHooks,
  limits: IncludeLimits = DEFAULT_INCLUDE_LIMITS,
): void {
  new Expansion(hooks, limits).file(root, { context, ancestors: [], includedFrom: [] });
}
