// nginx's proxy_set_header trap: a location defining any proxy_set_header inherits none from the levels above, so
// every header set there is silently not sent. This file finds what a proxying location drops and copies it down.
//
//   droppedHeaders(ws, location)   { own, inherited, dropped, anchor } or undefined (nothing dropped, or unknowable)
//   copyDownEdits(drop)            the dropped headers inserted before the block's first own header, or [] when
//                                  copying would change their meaning
//
// Decisions:
// - Only a location can be the block: proxy_set_header is not allowed in `if` or `limit_except` (nginx -t rejects
//   it), so a location whose `if` proxies is the block that loses the headers.
// - Copies keep the inherited order and each directive as written (quotes, case, values), one line each, before the
//   block's first own header (anchored at the include that brings it, when it comes from a snippet).
// - A header redefined in the block is not dropped, whatever its value; a header defined several times above is
//   copied with every definition (nginx sends each).
// - No fix, only the finding, when a dropped definition sits under a template guard (the copy would lose the
//   guard) or holds a template action in another file than the block (template variables are scoped to a file's
//   range/with blocks). Nothing at all when either set is unknowable (effective-lookup.ts), is guarded as a whole,
//   or the inherited one comes from an unfollowed proxy_params (its text is not in the checked tree).
import { insertLineBefore } from './edits.js';
import { headerKey, type ProxyHeader } from '../analysis/inheritance.js';
import { guardsWithin, type Scope } from '../analysis/scopes.js';
import type { TextEdit } from '../util/types.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { headerKeysOf, lookupDirective } from '../analysis/effective-lookup.js';
import { firstHeaderAnchor } from './header-anchor.js';
import { refusal } from './placement.js';
import { effectiveHeaderSet, type Found } from '../analysis/proxy-state.js';

export interface DroppedHeaders {
  own: Found;
  inherited: Found;
  /** The inherited headers the block does not redefine, in inherited order. */
  dropped: ProxyHeader[];
  /** The block's first own header statement (or the include bringing it): where the finding and the copies go. */
  anchor: Directive;
}

export function droppedHeaders(workspace: Workspace, location: Scope): DroppedHeaders | undefined {
  if (location.context !== 'location' || !location.parent) return undefined;
  const own = lookupDirective(workspace, location, 'proxy_set_header');
  if (own.kind !== 'found' || own.level !== location || own.conditional) return undefined;
  const inherited = lookupDirective(workspace, location.parent, 'proxy_set_header');
  if (inherited.kind !== 'found' || inherited.conditional || inherited.proxyParams) return undefined;
  const ownKeys = headerKeysOf(own);
  const dropped = [...effectiveHeaderSet(inherited)].filter(([key]) => !ownKeys.has(key)).map(([, header]) => header);
  const anchor = firstHeaderAnchor(own);
  if (dropped.length === 0 || !anchor) return undefined;
  const order = (header: ProxyHeader) => inherited.directives.indexOf(header.directives[0]!);
  return { own, inherited, dropped: dropped.sort((a, b) => order(a) - order(b)), anchor };
}

/** `proxy_set_header X-Real-IP $remote_addr;` as written, on one line. */
function sourceLine(directive: Directive): string {
  return `${[directive.name, ...directive.args.map((argument) => argument.raw)].join(' ')};`;
}

function copyable(directive: Directive, drop: DroppedHeaders): boolean {
  if (guardsWithin(directive, drop.inherited.level).length > 0) return false;
  return directive.file === drop.anchor.file || !directive.args.some((argument) => argument.templated);
}

function copiesOf(drop: DroppedHeaders): Directive[] {
  const keys = new Set(drop.dropped.map((header) => headerKey(header.name)));
  return drop.inherited.directives.filter((d) => d.args[0] && keys.has(headerKey(d.args[0].value)));
}

/** Whether copyDownEdits() has something to offer, decided without writing it (the rule asks in detect()). */
export function canCopyDown(drop: DroppedHeaders): boolean {
  return copiesOf(drop).every((directive) => copyable(directive, drop)) && !refusal(drop.own.level, 'proxy_set_header');
}

export function copyDownEdits(drop: DroppedHeaders): TextEdit[] {
  if (!canCopyDown(drop)) return [];
  return [insertLineBefore(drop.anchor, copiesOf(drop).map(sourceLine).join('\n'))];
}
