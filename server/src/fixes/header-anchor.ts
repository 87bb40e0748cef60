// Where a fix adds a proxy_set_header to the level that defines the effective set: after its last header (a new
// header for everyone inheriting the set) or before its first one (headers copied down from above, which read best
// ahead of the block's own). Both are statements written in the level's own block: a header that comes from a
// snippet (`include proxy_params;`) is anchored at that include, so a snippet shared by other blocks is left alone.
//
//   lastHeaderAnchor(found)    the statement to insert after, or undefined (nothing unguarded to anchor at)
//   firstHeaderAnchor(found)   the statement to insert before, or undefined
//
// Headers under a template guard within the level are skipped as anchors: a line next to them would share the guard.
import { guardsWithin, type Scope } from '../analysis/scopes.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Found } from '../analysis/proxy-state.js';

function levelFile(level: Scope): ConfigFile {
  return level.block?.file ?? level.root.file;
}

/** True when `include` pulls in `file`, directly or through further includes. */
function reaches(level: Scope, include: Directive, file: ConfigFile): boolean {
  const seen = new Set<ConfigFile>();
  const queue = [...(level.root.includes.get(include) ?? [])];
  // An index rather than shift(), and a loop rather than spreading into push: an include may match 150,000 files.
  for (let at = 0; at < queue.length; at++) {
    const next = queue[at]!;
    if (next === file) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const directive of next.directives) {
      if (directive.name !== 'include') continue;
      for (const included of level.root.includes.get(directive) ?? []) queue.push(included);
    }
  }
  return false;
}

/** `directive` when it is written in the level's own block, else the level's include that pulled it in. */
function ownStatementFor(level: Scope, directive: Directive): Directive | undefined {
  const file = levelFile(level);
  if (directive.file === file) return directive;
  const own = level.block ? level.block.children : file.directives;
  const include = own.filter((d) => d.name === 'include' && reaches(level, d, directive.file)).at(-1);
  if (!include) return directive;
  return guardsWithin(include, level).length === 0 ? include : undefined;
}

const positions = new WeakMap<Scope, Map<Directive, number>>();

function positionsIn(level: Scope): Map<Directive, number> {
  let position = positions.get(level);
  if (!position) {
    position = new Map(level.statements.map((statement, index) => [statement, index]));
    positions.set(level, position);
  }
  return position;
}

/** The set's unguarded headers and its unfollowed proxy_params include, in the level's statement order. */
function anchors(found: Found): Directive[] {
  const level = found.level;
  const headers = found.directives.filter((d) => guardsWithin(d, level).length === 0);
  const all = found.proxyParams ? [...headers, found.proxyParams] : headers;
  // Positions looked up once per level: indexOf in the comparator is quadratic when a level sets thousands of
  // headers, and a level with thousands of statements is asked once per location that inherits its set.
  const position = positionsIn(level);
  return all.sort((a, b) => (position.get(a) ?? -1) - (position.get(b) ?? -1));
}

export function lastHeaderAnchor(found: Found): Directive | undefined {
  const last = anchors(found).at(-1);
  return last && ownStatementFor(found.level, last);
}

export function firstHeaderAnchor(found: Found): Directive | undefined {
  const first = anchors(found)[0];
  return first && ownStatementFor(found.level, first);
}
