// One depth-first walk of a root with its includes spliced in place, as nginx reads it. Both building the workspace
// (which resolves includes as it meets them) and walkEffective (which replays the recorded edges) use it, so the two
// agree on which includes are followed, where cycles are cut and where the limits stop the walk.
import { contextOpenedBy } from './context.js';
import { MAX_NESTING_DEPTH } from './nesting-limit.js';
import type { ConfigFile, ContextName, Directive } from './types.js';
import { mentions } from './text-mentions.js';

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
  /** How many blocks enclose the directive, across include boundaries. */
  depth: number;
  /**
   * Enclosing block directives, outermost first, across include boundaries: kept only for hooks that ask for them
   * (`wantsAncestors`), else the shared empty list (a copy per block was most of what the walk allocated).
   */
  ancestors: readonly Directive[];
  /** The include directives that spliced this directive's file in, outermost first (empty in the root file). */
  includedFrom: readonly Directive[];
}

export interface ExpansionHooks {
  /** The files an include directive pulls in, in order; [] for a directive that is not a followable include. */
  resolve(include: Directive): readonly ConfigFile[];
  /** Give each scope its `ancestors` list (otherwise only its depth). */
  wantsAncestors?: boolean;
  /** Return false to skip the directive's block and, for an include, its expansion. */
  visit?(directive: Directive, scope: ExpansionScope): boolean | void;
  /** An include not followed: its target is already on the include chain, or a limit was reached. */
  cut?(include: Directive, kind: 'cycle' | 'limit', target: ConfigFile): void;
}

/**
 * Blocks whose child list an edit may replace (model/incremental-model.ts re-reads a statement of these, or of the
 * file): what they hold is never cached. Any other block's children stay as read.
 */
const REPLACED_CHILDREN: ReadonlySet<string> = new Set(['http', 'stream', 'mail', 'events']);
const includeHeld = new WeakMap<Directive, boolean>();

/** The directive is an include or holds one, at any depth. */
function holdsInclude(directive: Directive): boolean {
  if (directive.name === 'include') return true;
  if (directive.children.length === 0) return false;
  const cacheable = !REPLACED_CHILDREN.has(directive.name);
  const cached = cacheable ? includeHeld.get(directive) : undefined;
  if (cached !== undefined) return cached;
  const held = directive.children.some(holdsInclude);
  if (cacheable) includeHeld.set(directive, held);
  return held;
}

const NO_DIRECTIVES: readonly Directive[] = [];

class Expansion {
  private readonly chain = new Set<ConfigFile>();
  private includedFiles = 0;

  constructor(
    private readonly hooks: ExpansionHooks,
    private readonly limits: IncludeLimits,
  ) {}

  file(file: ConfigFile, scope: ExpansionScope): void {
    // With nobody to visit, only includes matter, and a directive is named `include` only where the text spells the
    // word (quotes come off around it, and the escapes nginx resolves make no letters): a file without it, most of
    // a tree's site files, is passed over without walking its statements.
    if (!this.hooks.visit && !mentions(file, 'include')) return;
    this.chain.add(file);
    this.directives(file.directives, scope);
    this.chain.delete(file);
  }

  private directives(directives: readonly Directive[], scope: ExpansionScope): void {
    const visit = this.hooks.visit;
    for (const directive of directives) {
      // With nobody to visit, only includes matter: a block holding none is passed over (a large file's servers, on
      // every keystroke in the language server).
      if (visit ? visit(directive, scope) === false : !holdsInclude(directive)) continue;
      if (directive.name === 'include') this.include(directive, scope);
      // Most directives have no block: ask for the context only of those with statements inside.
      const inner = directive.children.length > 0 ? contextOpenedBy(directive, scope.context) : undefined;
      if (inner) {
        const ancestors = this.hooks.wantsAncestors ? [...scope.ancestors, directive] : NO_DIRECTIVES;
        this.directives(directive.children, { context: inner, depth: scope.depth + 1, ancestors, includedFrom: scope.includedFrom });
      }
    }
  }

  private include(include: Directive, scope: ExpansionScope): void {
    const includedFrom = [...scope.includedFrom, include];
    const includedScope = { context: scope.context, depth: scope.depth, ancestors: scope.ancestors, includedFrom };
    for (const target of this.hooks.resolve(include)) {
      if (this.chain.has(target)) {
        this.hooks.cut?.(include, 'cycle', target);
      } else if (
        this.includedFiles >= this.limits.maxIncludedFiles ||
        includedScope.includedFrom.length > this.limits.maxDepth ||
        // Each file's own nesting is bounded (nesting-limit.ts); this bounds the nesting an include chain adds up to.
        scope.depth >= MAX_NESTING_DEPTH
      ) {
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
  new Expansion(hooks, limits).file(root, { context, depth: 0, ancestors: NO_DIRECTIVES, includedFrom: NO_DIRECTIVES });
}
