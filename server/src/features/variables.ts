// Where nginx variables are defined and used across the workspace, for go-to-definition and find-references.
//
//   variableSites(ws, name)   { definitions, uses } of `$name` (case-insensitive, as nginx registers variables)
//
// A definition is the variable argument of `map`, `geo`, `split_clients`, `set` and the module directives that set
// a variable the same way (js_set, perl_set, set_by_lua*, auth_request_set). Every other `$name` in an argument or
// an `if` condition is a use. Files are read once each, wherever they are included.
import type { ConfigFile, Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { perWorkspace } from '../analysis/per-workspace.js';
import { conditionVariables, type VariableAt } from './locate.js';

export interface VariableSite extends VariableAt {
  file: ConfigFile;
  directive: Directive;
}

export interface VariableSites {
  definitions: VariableSite[];
  uses: VariableSite[];
}

/** Which argument of a directive names the variable it defines; blocks only where nginx requires one. */
const DEFINING_ARGUMENT: Readonly<Record<string, (directive: Directive) => number | undefined>> = {
  map: (d) => (d.blockSpan ? 1 : undefined),
  geo: (d) => (d.blockSpan ? d.args.length - 1 : undefined),
  split_clients: (d) => (d.blockSpan ? 1 : undefined),
  set: () => 0,
  js_set: () => 0,
  perl_set: () => 0,
  set_by_lua: () => 0,
  set_by_lua_file: () => 0,
  set_by_lua_block: () => 0,
  auth_request_set: () => 0,
};

function definedVariable(directive: Directive): VariableAt | undefined {
  const index = Object.hasOwn(DEFINING_ARGUMENT, directive.name) ? DEFINING_ARGUMENT[directive.name]!(directive) : undefined;
  const argument = index === undefined ? undefined : directive.args[index];
  const variable = argument?.variables[0];
  // Only an argument that is exactly one variable (`$x`, `${x}`) defines it.
  if (!argument || !variable || argument.templated || argument.variables.length !== 1) return undefined;
  if (variable.span.startOffset !== argument.span.startOffset + (argument.quoted ? 1 : 0)) return undefined;
  return { name: variable.name, span: variable.span };
}

function key(name: string): string {
  return name.toLowerCase();
}

function add(index: Map<string, VariableSites>, site: VariableSite, kind: keyof VariableSites): void {
  let sites = index.get(key(site.name));
  if (!sites) {
    sites = { definitions: [], uses: [] };
    index.set(key(site.name), sites);
  }
  sites[kind].push(site);
}

function indexDirective(index: Map<string, VariableSites>, file: ConfigFile, directive: Directive): void {
  const defined = definedVariable(directive);
  if (defined) add(index, { ...defined, file, directive }, 'definitions');
  for (const argument of directive.args) {
    for (const variable of argument.variables) {
      if (defined && variable.span.startOffset === defined.span.startOffset) continue;
      add(index, { name: variable.name, span: variable.span, file, directive }, 'uses');
    }
  }
  for (const variable of conditionVariables(directive)) add(index, { ...variable, file, directive }, 'uses');
  for (const child of directive.children) indexDirective(index, file, child);
}

function buildIndex(workspace: Workspace): Map<string, VariableSites> {
  const index = new Map<string, VariableSites>();
  for (const file of workspace.files) {
    for (const directive of file.directives) indexDirective(index, file, directive);
  }
  return index;
}

const indexOf = perWorkspace(buildIndex);

const NONE: VariableSites = { definitions: [], uses: [] };

/** Every variable the workspace defines or uses, by lower-cased name (for completion). */
export function allVariableSites(workspace: Workspace): ReadonlyMap<string, VariableSites> {
  return indexOf(workspace);
}

export function variableSites(workspace: Workspace, name: string): VariableSites {
  return indexOf(workspace).get(key(name)) ?? NONE;
}
