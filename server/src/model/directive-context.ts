// nginx's precise context (the directive table's: `if` in a server differs from `if` in a location, a stream server
// from an http one) of a place in a file: the file's top-level context, through the includes that pull it in, then
// the blocks around the place. Completion, hover and anything else asking "what does nginx allow here" read it.
//
//   blockContext(outer, blockName)          the context inside a `blockName {}` written in `outer`
//   fileTopContext(workspace, file)         the context of a file's top level (include graph, else its root context)
//   contextOfBlocks(workspace, file, chain) the context inside the given enclosing blocks of `file`
import type { DirectiveContext } from './directive-table.js';
import { directiveEntries } from './directive-table.js';
import { rootContextOf } from './context.js';
import type { ConfigFile, ContextName, Directive } from './types.js';
import type { Workspace } from './workspace.js';

/** The blocks nginx reads as directives, by the context they are written in (the rest have custom bodies). */
const OPENS: Partial<Record<DirectiveContext, Readonly<Record<string, DirectiveContext>>>> = {
  main: { events: 'events', http: 'http', stream: 'stream', mail: 'mail', rtmp: 'rtmp' },
  http: { server: 'server', upstream: 'upstream' },
  server: { location: 'location', if: 'if-in-server' },
  location: { location: 'location', if: 'if-in-location', limit_except: 'limit_except' },
  stream: { server: 'stream-server', upstream: 'stream-upstream' },
  mail: { server: 'mail-server' },
  rtmp: { server: 'rtmp-server' },
  'rtmp-server': { application: 'rtmp-application', recorder: 'rtmp-recorder' },
  'rtmp-application': { recorder: 'rtmp-recorder' },
};

/**
 * The context inside a `blockName {}` block written in `outer`; undefined where nginx reads no directives inside
 * (map, geo, types, Lua code, an unknown module's block) or where the block itself is not nginx's.
 */
export function blockContext(outer: DirectiveContext | undefined, blockName: string): DirectiveContext | undefined {
  const table = outer === undefined ? undefined : OPENS[outer];
  // hasOwn: a block named `constructor` must not find Object's.
  return table && Object.hasOwn(table, blockName) ? table[blockName] : undefined;
}

/** The model's coarse context of a file's top level as a precise one (a root `server` is http's: the common case). */
const FROM_MODEL: Partial<Record<ContextName, DirectiveContext>> = {
  main: 'main',
  events: 'events',
  http: 'http',
  server: 'server',
  location: 'location',
  upstream: 'upstream',
  if: 'if-in-location',
  limit_except: 'limit_except',
  stream: 'stream',
  mail: 'mail',
};

/** The model's coarse context as the table's precise one; undefined for contexts nginx reads no directives in. */
export function preciseContext(name: ContextName): DirectiveContext | undefined {
  return FROM_MODEL[name];
}

/** The blocks enclosing `directive` inside its own file, outermost first. */
export function enclosingBlocks(directive: Directive): Directive[] {
  const chain: Directive[] = [];
  for (let parent = directive.parent; parent; parent = parent.parent) chain.push(parent);
  return chain.reverse();
}

function throughBlocks(top: DirectiveContext | undefined, chain: readonly Directive[]): DirectiveContext | undefined {
  let context = top;
  for (const block of chain) context = blockContext(context, block.name);
  return context;
}

/** Includes nest at most this deep here; deeper chains (or cycles) fall back to the file's own root context. */
const MAX_INCLUDE_HOPS = 16;

function topContext(workspace: Workspace, file: ConfigFile, hops: number): DirectiveContext | undefined {
  const root = workspace.roots.find((candidate) => candidate.file === file);
  if (root) return FROM_MODEL[root.context];
  if (hops < MAX_INCLUDE_HOPS) {
    // The first include that pulls the file in decides, as the analysis reads a file in its first includer's place.
    for (const [include, targets] of workspace.includes) {
      if (include.file === file || !targets.includes(file)) continue;
      return throughBlocks(topContext(workspace, include.file, hops + 1), enclosingBlocks(include));
    }
  }
  return FROM_MODEL[rootContextOf(file).name];
}

export function fileTopContext(workspace: Workspace, file: ConfigFile): DirectiveContext | undefined {
  return topContext(workspace, file, 0);
}

/** The context inside the innermost of `chain` (enclosing blocks of `file`, outermost first), or the file's top. */
export function contextOfBlocks(workspace: Workspace, file: ConfigFile, chain: readonly Directive[]): DirectiveContext | undefined {
  return throughBlocks(fileTopContext(workspace, file), chain);
}

/** The context `directive` itself sits in. */
export function contextOfDirective(workspace: Workspace, directive: Directive): DirectiveContext | undefined {
  return contextOfBlocks(workspace, directive.file, enclosingBlocks(directive));
}

/** Whether a block's body is nginx directives (false for map, geo, types, Lua blocks...), by the table. */
export function hasCustomBody(name: string): boolean {
  return directiveEntries(name).some((entry) => entry.body === 'custom');
}
