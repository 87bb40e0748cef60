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
    // Resolving includes only (no visitor): only the blocks on the way to an include are entered, and a file without
    // one is not walked at all.
    const holders = this.hooks.visit === undefined ? blocksHoldingIncludes(file) : undefined;
    if (holders === null) return;
    this.chain.add(file);
    this.directives(file.directives, scope, holders);
    this.chain.delete(file);
  }

  /** `holders`, when given: the only blocks worth entering. */
  private directives(directives: readonly Directive[], scope: ExpansionScope, holders: ReadonlySet<Directive> | undefined): void {
    const visit = this.hooks.visit;
    for (const directive of directives) {
      if (visit && visit(directive, scope) === false) continue;
      if (directive.name === 'include') this.include(directive, scope);
      // Most directives have no block: ask for the context only of those with statements inside.
      const entered = directive.children.length > 0 && (holders === undefined || holders.has(directive));
      const inner = entered ? contextOpenedBy(directive, scope.context) : undefined;
      if (inner) {
        const ancestors = [...scope.ancestors, directive];
        this.directives(directive.children, { context: inner, ancestors, includedFrom: scope.includedFrom }, holders);
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

/**
 * The blocks of a file with an `include` somewhere inside; null when the file has none at all. A file is immutable
 * once built, so each is searched once. Recursive: nesting is bounded (nesting-limit.ts).
 */
function blocksHoldingIncludes(file: ConfigFile): ReadonlySet<Directive> | null {
  let holders = includeHolders.get(file);
  if (holders === undefined) {
    const found = new Set<Directive>();
    const holds = (directives: readonly Directive[]): boolean => {
      let any = false;
      for (const directive of directives) {
        if (directive.name === 'include') any = true;
        if (directive.children.length > 0 && holds(directive.children)) {
          found.add(directive);
          any = true;
        }
      }
      return any;
    };
    holders = holds(file.directives) ? found : null;
    includeHolders.set(file, holders);
  }
  return holders;
}

const includeHolders = new WeakMap<ConfigFile, ReadonlySet<Directive> | null>();

export function expandRoot(
  root: ConfigFile,
  context: ContextName,
  hooks: ExpansionHooks,
  limits: IncludeLimits = DEFAULT_INCLUDE_LIMITS,
): void {
  new Expansion(hooks, limits).file(root, { context, ancestors: [], includedFrom: [] });
}
