// A bound on how deep a file's blocks may nest in the model. Real configurations nest a handful of levels (http,
// server, location, if); a file nested thousands deep is a generated or hostile input. Every consumer of the model
// (structure checks, scopes, rules, language features) may walk `children` recursively, so the bound is applied once,
// here, instead of making each of them iterative: blocks below the limit are dropped from the model and reported.
import type { Directive, SyntaxProblem } from './types.js';

/** Levels of directives kept: top-level directives are level 1. Far beyond any real configuration. */
export const MAX_NESTING_DEPTH = 100;

/**
 * Empties the blocks of directives at `maxDepth` (iteratively: the input may be deeper than the call stack) and
 * returns one problem at the first block that was cut, or none.
 */
export function limitNesting(directives: readonly Directive[], maxDepth = MAX_NESTING_DEPTH): SyntaxProblem[] {
  let first: Directive | undefined;
  // Only blocks are stacked (most directives have none), each with its level beside it: no object per directive.
  const stack: Directive[] = [];
  const depths: number[] = [];
  const pushBlocks = (list: readonly Directive[], depth: number) => {
    for (const directive of list) {
      if (directive.children.length === 0) continue;
      stack.push(directive);
      depths.push(depth);
    }
  };
  pushBlocks(directives, 1);
  while (stack.length > 0) {
    const directive = stack.pop()!;
    const depth = depths.pop()!;
    if (depth < maxDepth) {
      pushBlocks(directive.children, depth + 1);
      continue;
    }
    const cut = directive.children[0]!;
    if (!first || cut.span.startOffset < first.span.startOffset) first = cut;
    directive.children = [];
  }
  if (!first) return [];
  return [
    {
      message: `blocks nested more than ${maxDepth} levels deep are not checked (this one and any deeper)`,
      span: first.nameSpan,
    },
  ];
}
