// The walk the `directive` rule checks along: every directive nginx would read, in nginx's order, with its precise
// context (directive table contexts) and the block it joins, includes expanded in place (an included file's
// top-level directives join the includer's block, as nginx reads them). Blocks nginx does not read as directives
// (map, geo, types, Lua code, an unknown module's block) are not entered, nor are blocks named by a template action.
import { blockContext, hasCustomBody } from '../model/directive-context.js';
import type { ContextNames } from './directive-plan.js';
import type { DirectiveContext } from '../model/directive-table.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { WorkspaceRoot } from '../model/workspace.js';

/** One block as nginx reads it: the first directive of each name nginx refuses twice written in it so far ("is duplicate"). */
export interface BlockFrame {
  context: DirectiveContext;
  /** Made at the first record: the walk makes a frame for every block it enters, and many record nothing. */
  firstByName?: Map<string, Directive>;
  /** What the check has read of the table for the names in this context (directive-plan.ts), kept at its first. */
  names?: ContextNames;
}

export type DirectiveVisitor = (directive: Directive, frame: BlockFrame) => void;

/**
 * A name that is (or holds) a template action or placeholder (`{{ $x }}`, `{% x %}`, `${X}`, `<%= x %>`, `@X@`): not
 * a directive until rendered. Any other word is one to nginx, a typo like `proxy-pass` included ("unknown directive").
 * A scan of its characters (one of `$ { } % < > @`): the walk asks it of every directive.
 */
export function templatedName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 36 || c === 123 || c === 125 || c === 37 || c === 60 || c === 62 || c === 64) return true;
  }
  return false;
}

/** Include chains deeper than this (or cycles) are not followed: the include rule reports them. */
const MAX_INCLUDE_DEPTH = 16;

/**
 * Visits every directive reached from `root` when its top level is read in `top`. With `within`, only the directives
 * of that block (it and everything under it) are visited: the walk goes down to it and skips the rest of its file.
 * Frames above `within` then miss the directives not visited, which only matters to a directive whose duplicate
 * nginx refuses: the caller's business (directive.ts asks this only for blocks whose name may repeat).
 */
export function walkRoot(root: WorkspaceRoot, top: DirectiveContext, visit: DirectiveVisitor, within?: Directive): void {
  // Made when first needed: most roots include nothing, and only a walk `within` a block reads its ancestors.
  let open: Set<ConfigFile> | undefined;
  const ancestors = within ? new Set<Directive>() : undefined;
  for (let up = within?.parent; up; up = up.parent) ancestors!.add(up);
  const walkList = (list: readonly Directive[], frame: BlockFrame, depth: number, inside: boolean): void => {
    // Indexed, not for-of: the walk meets every directive of the run once or more, mostly before V8 optimizes it,
    // and unoptimized for-of makes an iterator result per step.
    for (let i = 0; i < list.length; i++) {
      const directive = list[i]!;
      if (templatedName(directive.name)) continue;
      const entered = inside || directive === within;
      // Outside `within` in its own file, only the blocks holding it lead to it (its file is open: includes there
      // cannot reach it again); other files may include it anywhere.
      if (within && !entered && directive.file === within.file && !ancestors!.has(directive)) continue;
      if (!within || entered) visit(directive, frame);
      if (directive.name === 'include') {
        if (depth >= MAX_INCLUDE_DEPTH) continue;
        const targets = root.includes.get(directive);
        if (!targets) continue;
        open ??= new Set<ConfigFile>([root.file]);
        for (const target of targets) {
          if (open.has(target)) continue;
          open.add(target);
          walkList(target.directives, frame, depth + 1, entered);
          open.delete(target);
        }
        continue;
      }
      if (!directive.blockSpan) continue;
      // Only the few names that open a context are asked about their body (the table is read for them alone).
      const inner = blockContext(frame.context, directive.name);
      if (inner !== undefined && !hasCustomBody(directive.name)) walkList(directive.children, { context: inner }, depth, entered);
    }
  };
  walkList(root.file.directives, { context: top }, 0, false);
}
