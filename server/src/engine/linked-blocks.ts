// Which blocks a rule declaring `readsAcrossBlocks: 'upstream-links'` (analysis/rule-api.ts) must decide again after
// an edit confined to one block, and the workspace it decides them in. The blocks are the server and upstream
// blocks at a file's top level or in its top-level http{} ("units"); they read one another only through upstream
// names: a server's passes name upstreams, an upstream is named by passes.
//
// - decided: the edited block and the units linked to it, before or after the edit (the upstreams its passes name,
//   the servers whose passes name its upstreams): their findings may change.
// - present: those, and the units linked to any of them: what the decided ones read (an upstream's other users, a
//   user's other upstreams). The view (analysis/scopes.ts scopeView) holds only these units and whatever
//   lies outside every unit (http's own directives, maps, other files' top levels).
// Every other unit's findings are the previous analysis's, moved: nothing it reads changed.
//
// A literal pass (`proxy_pass http://127.0.0.1:3000`, or a name no upstream has) may reuse an upstream holding that
// address (fixes/implicit-upstream.ts reusableUpstream, which decides whether its fix is withheld): it is linked to
// the upstreams by the address too. The rules run on everything when the present blocks are most of a large workspace
// anyway, or a finding lies outside every unit (block-rerun.ts).
import { parsePassTarget, PASS_PROTOCOLS } from '../analysis/passes.js';
import { scopeView } from '../analysis/scopes.js';
import { normaliseTemplateText } from '../analysis/template-text.js';
import { upstreamKey } from '../analysis/upstreams.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import type { Span } from '../util/types.js';

const UNIT_NAMES: ReadonlySet<string> = new Set(['server', 'upstream']);

/** Address keys apart from upstream names. */
const ADDRESS = 'address\0';

/** An upstream server's address as fixes/implicit-upstream.ts serverKey() compares it (port 80 when none). */
function serverAddress(value: string): string | undefined {
  if (value.startsWith('unix:')) return value;
  const parsed = parsePassTarget(`http://${value}`);
  return parsed.host === undefined ? undefined : `${parsed.host.toLowerCase()}:${Number(parsed.port ?? '80')}`;
}

/**
 * What a unit links by: the upstream keys it defines or its passes name, and the addresses (`address\0host:port`)
 * its upstream's servers have or its passes name.
 */
interface Links {
  /** An upstream's: its name's key and its servers' addresses. */
  defines: string[];
  /** A server's: what its passes name. */
  uses: string[];
  /** It holds an include (its links then depend on the workspace's include edges: not cached). */
  includes: boolean;
  /** An include in it pulls in a file with units of its own: leaving it out would leave those out too. */
  nestsUnits: boolean;
}

function isUnit(directive: Directive): boolean {
  return UNIT_NAMES.has(directive.name) && directive.blockSpan !== undefined;
}

/** The file's units in text order: its top-level server and upstream blocks and those of a top-level http{}. */
function unitsOf(file: ConfigFile): Directive[] {
  const units: Directive[] = [];
  for (const directive of file.directives) {
    if (isUnit(directive)) units.push(directive);
    else if (directive.name === 'http' && directive.blockSpan) for (const child of directive.children) if (isUnit(child)) units.push(child);
  }
  return units;
}

function isPassName(name: string): name is keyof typeof PASS_PROTOCOLS {
  return Object.hasOwn(PASS_PROTOCOLS, name);
}

/** `members`: the directives are an upstream's own (its servers, and those of files it includes). */
function addLinks(directives: readonly Directive[], links: Links, workspace: Workspace, seen: Set<ConfigFile>, members: boolean): void {
  for (const directive of directives) {
    if (directive.name === 'include') {
      links.includes = true;
      for (const file of workspace.includes.get(directive) ?? []) {
        if (seen.has(file)) continue;
        seen.add(file);
        if (unitsOf(file).length > 0) links.nestsUnits = true;
        addLinks(file.directives, links, workspace, seen, members);
      }
    } else if (isPassName(directive.name) && directive.args[0]) {
      const target = parsePassTarget(directive.args[0].value);
      if (target.host !== undefined) links.uses.push(upstreamKey(target.host));
      // As implicitTarget() keys it; https's default port too, as a server line could write it.
      if (target.socket !== undefined) links.uses.push(`${ADDRESS}unix:${target.socket}`);
      else if (target.host !== undefined) {
        const host = target.host.toLowerCase();
        if (target.port !== undefined) links.uses.push(`${ADDRESS}${host}:${Number(target.port)}`);
        else links.uses.push(`${ADDRESS}${host}:80`, `${ADDRESS}${host}:443`);
      }
    } else if (members && directive.name === 'server' && !directive.blockSpan && directive.args[0]) {
      const key = serverAddress(directive.args[0].value);
      if (key !== undefined) links.defines.push(`${ADDRESS}${key}`);
    }
    addLinks(directive.children, links, workspace, seen, false);
  }
}

// Keyed by the block: a unit an edit did not touch is the same object in the next model (incremental-model.ts).
const cachedLinks = new WeakMap<Directive, Links>();

function linksOf(unit: Directive, workspace: Workspace): Links {
  const cached = cachedLinks.get(unit);
  if (cached) return cached;
  const links: Links = { defines: [], uses: [], includes: false, nestsUnits: false };
  if (unit.name === 'upstream' && unit.args[0]) links.defines.push(upstreamKey(normaliseTemplateText(unit.args[0].value)));
  addLinks(unit.children, links, workspace, new Set(), unit.name === 'upstream');
  links.defines = [...new Set(links.defines)];
  links.uses = [...new Set(links.uses)];
  if (!links.includes) cachedLinks.set(unit, links);
  return links;
}

export type Place = 'decided' | 'kept' | 'outer';

export interface LinkedPlan {
  /** The workspace with only the present units. */
  view: Workspace;
  /** Where a finding at `span` of `file` (in the new text) lies. */
  place(file: string, span: Span): Place;
  /** How many units are decided again (for tests). */
  decided: number;
}

/** The unit of `units` (in text order) holding the span, if any. */
function unitAt(units: readonly Directive[], span: Span): Directive | undefined {
  let low = 0;
  let high = units.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (units[middle]!.span.startOffset <= span.startOffset) low = middle;
    else high = middle - 1;
  }
  const unit = units[low];
  return unit && unit.span.startOffset <= span.startOffset && span.endOffset <= unit.span.endOffset ? unit : undefined;
}

/**
 * The plan after `replaced` became `edited` (a block of the workspace's file `edited.file`), or undefined when the
 * rules must run on everything.
 */
export function linkedPlan(workspace: Workspace, replaced: Directive, edited: Directive): LinkedPlan | undefined {
  const top = edited.parent;
  if (!isUnit(edited) || (top && (top.name !== 'http' || top.parent !== undefined))) return undefined;
  const unitsByFile = new Map<string, Directive[]>();
  // Who defines a key, who uses it.
  const definers = new Map<string, Directive[]>();
  const users = new Map<string, Directive[]>();
  const add = (map: Map<string, Directive[]>, key: string, unit: Directive) => {
    const list = map.get(key);
    if (list) list.push(unit);
    else map.set(key, [unit]);
  };
  let units = 0;
  const all: Array<[Directive, Links]> = [];
  for (const file of workspace.files) {
    const list = unitsOf(file);
    // A path twice (a link and its target read apart) would make places ambiguous.
    if (unitsByFile.has(file.path)) return undefined;
    unitsByFile.set(file.path, list);
    for (const unit of list) {
      const links = linksOf(unit, workspace);
      if (links.nestsUnits) return undefined;
      all.push([unit, links]);
      units++;
      for (const key of links.defines) add(definers, key, unit);
      for (const key of links.uses) add(users, key, unit);
    }
  }
  const before = linksOf(replaced, workspace);
  const after = linksOf(edited, workspace);
  // The units on the other side of a key: the definers of what `links` uses, the users and other definers of what it
  // defines (a pass to a name two upstreams have resolves to both).
  const linked = (links: Links, into: Set<Directive>) => {
    for (const key of links.uses) for (const unit of definers.get(key) ?? []) into.add(unit);
    for (const key of links.defines) {
      for (const unit of users.get(key) ?? []) into.add(unit);
      for (const unit of definers.get(key) ?? []) into.add(unit);
    }
  };
  const decided = new Set<Directive>([edited]);
  linked(before, decided);
  linked(after, decided);
  const present = new Set(decided);
  for (const unit of decided) linked(linksOf(unit, workspace), present);
  // Most of a large workspace anyway: the view would cost what a full run does (small ones take the plan, which the
  // property tests exercise).
  if (units >= 32 && present.size * 2 > units) return undefined;
  const left = new Set<Directive>();
  for (const [unit] of all) if (!present.has(unit)) left.add(unit);
  const view = scopeView(workspace, left);
  return {
    view,
    decided: decided.size,
    place(file, span) {
      const list = unitsByFile.get(file);
      const unit = list && unitAt(list, span);
      if (!unit) return 'outer';
      return decided.has(unit) ? 'decided' : 'kept';
    },
  };
}
