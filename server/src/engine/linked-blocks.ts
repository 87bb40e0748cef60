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
import type { ModelEdit } from '../model/incremental-model.js';
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

/** A file's units and who among them defines or uses each key. */
interface FileUnits {
  units: Directive[];
  definers: Map<string, Directive[]>;
  users: Map<string, Directive[]>;
  /** A unit includes a file with units of its own (no plan then). */
  nestsUnits: boolean;
}

function addTo(map: Map<string, Directive[]>, key: string, unit: Directive): void {
  const list = map.get(key);
  if (list) list.push(unit);
  else map.set(key, [unit]);
}

function removeFrom(map: Map<string, Directive[]>, key: string, unit: Directive): void {
  const list = map.get(key);
  const at = list ? list.indexOf(unit) : -1;
  if (at === -1) return;
  if (list!.length === 1) map.delete(key);
  else list!.splice(at, 1);
}

function addUnit(index: FileUnits, unit: Directive, workspace: Workspace): void {
  const links = linksOf(unit, workspace);
  if (links.nestsUnits) index.nestsUnits = true;
  for (const key of links.defines) addTo(index.definers, key, unit);
  for (const key of links.uses) addTo(index.users, key, unit);
}

// Kept with the file's model: an unchanged file is the same object in the next workspace, and an edited file's index
// is taken over by its next model (as the model itself is: incremental-model.ts), the edited block swapped.
const fileIndexes = new WeakMap<ConfigFile, FileUnits>();

function fileIndex(file: ConfigFile, workspace: Workspace): FileUnits {
  let index = fileIndexes.get(file);
  if (!index) {
    index = { units: unitsOf(file), definers: new Map(), users: new Map(), nestsUnits: false };
    for (const unit of index.units) addUnit(index, unit, workspace);
    fileIndexes.set(file, index);
  }
  return index;
}

/** The edited file's index: its previous model's with `replaced` swapped for `edited`, or built afresh. */
function editedIndex(edit: ModelEdit, workspace: Workspace): FileUnits {
  const file = edit.edited.file;
  const previous = fileIndexes.get(edit.previous);
  const at = previous ? previous.units.indexOf(edit.replaced) : -1;
  if (!previous || at === -1 || fileIndexes.has(file)) return fileIndex(file, workspace);
  fileIndexes.delete(edit.previous);
  const old = linksOf(edit.replaced, workspace);
  for (const key of old.defines) removeFrom(previous.definers, key, edit.replaced);
  for (const key of old.uses) removeFrom(previous.users, key, edit.replaced);
  previous.units[at] = edit.edited;
  addUnit(previous, edit.edited, workspace);
  fileIndexes.set(file, previous);
  return previous;
}

function isTopUnit(directive: Directive): boolean {
  const parent = directive.parent;
  return isUnit(directive) && (!parent || (parent.name === 'http' && !parent.parent));
}

/**
 * The plan after the edit's `replaced` block became `edited` (a block of the workspace's file `edited.file`), or
 * undefined when the rules must run on everything.
 */
export function linkedPlan(workspace: Workspace, edit: ModelEdit): LinkedPlan | undefined {
  const { replaced, edited } = edit;
  if (!isTopUnit(edited)) return undefined;
  const indexes = new Map<string, FileUnits>();
  let units = 0;
  for (const file of workspace.files) {
    // A path twice (a link and its target read apart) would make places ambiguous.
    if (indexes.has(file.path)) return undefined;
    const index = file === edited.file ? editedIndex(edit, workspace) : fileIndex(file, workspace);
    if (index.nestsUnits) return undefined;
    indexes.set(file.path, index);
    units += index.units.length;
  }
  const holding = (key: string, side: 'definers' | 'users', into: Set<Directive>) => {
    for (const index of indexes.values()) for (const unit of index[side].get(key) ?? []) into.add(unit);
  };
  // The units on the other side of a key: the definers of what `links` uses, the users and other definers of what it
  // defines (a pass to a name two upstreams have resolves to both).
  const linked = (links: Links, into: Set<Directive>) => {
    for (const key of links.uses) holding(key, 'definers', into);
    for (const key of links.defines) {
      holding(key, 'users', into);
      holding(key, 'definers', into);
    }
  };
  const decided = new Set<Directive>([edited]);
  linked(linksOf(replaced, workspace), decided);
  linked(linksOf(edited, workspace), decided);
  const present = new Set(decided);
  for (const unit of decided) linked(linksOf(unit, workspace), present);
  // Most of a large workspace anyway: the view would cost what a full run does (small ones take the plan, which the
  // property tests exercise).
  if (units >= 32 && present.size * 2 > units) return undefined;
  const view = scopeView(workspace, (directive) => isTopUnit(directive) && !present.has(directive));
  return {
    view,
    decided: decided.size,
    place(file, span) {
      const list = indexes.get(file)?.units;
      const unit = list && unitAt(list, span);
      if (!unit) return 'outer';
      return decided.has(unit) ? 'decided' : 'kept';
    },
  };
}
