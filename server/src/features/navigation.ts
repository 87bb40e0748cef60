// Go to definition and find references: a pass target <-> its `upstream {}` (across the workspace's files), a
// `$variable` -> the map/set/geo/split_clients defining it, an `include` -> the files it pulls in.
//
//   definitionsAt(ctx, offset)                         FeatureLocation[] (empty when nothing is known there)
//   referencesAt(ctx, offset, includeDeclaration)      FeatureLocation[]
//   upstreamsAt(ctx, located)                          the upstream{} blocks the cursor names, for hover too
import { passes, parsePassTarget, PASS_PROTOCOLS, usersOf } from '../analysis/passes.js';
import { findUpstreams, upstreams, type Upstream } from '../analysis/upstreams.js';
import type { Directive } from '../model/types.js';
import type { FeatureContext, FeatureLocation } from './context.js';
import { locate, type Located } from './locate.js';
import { variableSites } from './variables.js';

export function isPassDirective(directive: Directive): boolean {
  return Object.hasOwn(PASS_PROTOCOLS, directive.name);
}

/** On the directive's name or its first argument (the target / the block's name). */
function onNameOrFirstArgument(located: Located): boolean {
  return located.part.kind === 'name' || (located.part.kind === 'argument' && located.part.index === 0);
}

function upstreamsOfPass(ctx: FeatureContext, directive: Directive): Upstream[] {
  const found = new Set<Upstream>();
  const ofDirective = passes(ctx.workspace).filter((pass) => pass.directive === directive);
  for (const pass of ofDirective) {
    if (pass.resolution.kind === 'upstream') pass.resolution.upstreams.forEach((upstream) => found.add(upstream));
  }
  if (ofDirective.length === 0 && directive.args[0]) {
    // The directive sits in no scope of the workspace (a file nothing reached): resolve by name alone.
    const host = parsePassTarget(directive.args[0].value).host;
    if (host !== undefined) findUpstreams(ctx.workspace, host).forEach((upstream) => found.add(upstream));
  }
  return [...found];
}

/** The upstream{} blocks named at the cursor: a pass target's, or the block whose name the cursor is on. */
export function upstreamsAt(ctx: FeatureContext, located: Located): Upstream[] {
  const { directive } = located;
  if (located.variable || !onNameOrFirstArgument(located)) return [];
  if (isPassDirective(directive)) return upstreamsOfPass(ctx, directive);
  if (directive.name === 'upstream' && directive.blockSpan) {
    return upstreams(ctx.workspace).filter((upstream) => upstream.directive === directive);
  }
  return [];
}

function nameLocation(upstream: Upstream): FeatureLocation {
  const { directive } = upstream;
  return { file: directive.file, span: directive.args[0]?.span ?? directive.nameSpan };
}

function passLocations(ctx: FeatureContext, targets: readonly Upstream[]): FeatureLocation[] {
  const directives = new Set<Directive>();
  for (const upstream of targets) usersOf(ctx.workspace, upstream).forEach((pass) => directives.add(pass.directive));
  return [...directives].map((directive) => ({ file: directive.file, span: directive.args[0]?.span ?? directive.span }));
}

function includeTargets(ctx: FeatureContext, directive: Directive): FeatureLocation[] {
  const files = ctx.workspace.includes.get(directive) ?? [];
  return files.map((file) => ({ file, span: { startOffset: 0, endOffset: 0 } }));
}

function variableDefinitions(ctx: FeatureContext, name: string): FeatureLocation[] {
  return variableSites(ctx.workspace, name).definitions.map((site) => ({ file: site.file, span: site.span }));
}

export function definitionsAt(ctx: FeatureContext, offset: number): FeatureLocation[] {
  const located = locate(ctx.file, offset);
  if (!located) return [];
  if (located.variable) return variableDefinitions(ctx, located.variable.name);
  if (located.directive.name === 'include') return includeTargets(ctx, located.directive);
  return upstreamsAt(ctx, located).map(nameLocation);
}

function unique(locations: FeatureLocation[]): FeatureLocation[] {
  const seen = new Map<FeatureLocation['file'], Set<string>>();
  return locations.filter(({ file, span }) => {
    const keys = seen.get(file) ?? new Set<string>();
    seen.set(file, keys);
    const key = `${span.startOffset}:${span.endOffset}`;
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  });
}

export function referencesAt(ctx: FeatureContext, offset: number, includeDeclaration: boolean): FeatureLocation[] {
  const located = locate(ctx.file, offset);
  if (!located) return [];
  let declarations: FeatureLocation[];
  let uses: FeatureLocation[];
  if (located.variable) {
    const sites = variableSites(ctx.workspace, located.variable.name);
    declarations = sites.definitions.map((site) => ({ file: site.file, span: site.span }));
    uses = sites.uses.map((site) => ({ file: site.file, span: site.span }));
  } else {
    const targets = upstreamsAt(ctx, located);
    declarations = targets.map(nameLocation);
    uses = passLocations(ctx, targets);
  }
  return unique(includeDeclaration ? [...declarations, ...uses] : uses);
}
