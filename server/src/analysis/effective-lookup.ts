// The effective definition of a directive at a scope (inheritance.ts's walk), honest about what the model cannot
// see. A level "hides" a definition when an include there pulled in nothing it should have (missing, outside the
// checked paths, a templated path), when its own statements did not parse, or when it holds or follows its file's
// first syntax error (misread.ts: nginx reads nothing past it): the directive may be defined there, so the answer
// is `unknown` and the rules report nothing (they never guess).
//
//   lookupDirective(ws, scope, name)   found (level, directives, conditional, proxyParams) | none | unknown;
//                                      `conditional` when every definition is under a template guard the passes
//                                      in `scope` are not under too (conditionalGuards)
//   headerKeysOf(found)                the lower-cased header names a found proxy_set_header set sends
//   unreadLevel(level)                 the level's statements may not be what nginx reads (a syntax error)
//
// Two kinds of unfollowed include are known, not guessed: a glob that matched nothing includes nothing (nginx
// agrees), and the files distributions ship (mime.types, fastcgi_params, ...; model/includes.ts) are not in a
// repository by design. Of those only Debian/Ubuntu's `proxy_params` sets anything these rules read: four
// proxy_set_header lines (PROXY_PARAMS_HEADERS), so a level including it defines a header set (without Connection).
import path from 'node:path';
import { inheritanceChain, headerKey } from './inheritance.js';
import { guardsWithin, statementsNamed, unfollowedIncludes, type Scope } from './scopes.js';
import type { ConfigFile, Directive, TemplateGuard } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { perWorkspace } from './per-workspace.js';
import { isMisreadLevel } from './misread.js';
import { MemoMap } from '../util/memo-map.js';

/** What /etc/nginx/proxy_params sets on Debian and Ubuntu (all proxy_set_header). */
export const PROXY_PARAMS_HEADERS: readonly string[] = ['Host', 'X-Real-IP', 'X-Forwarded-For', 'X-Forwarded-Proto'];

export type Lookup =
  | {
      kind: 'found';
      level: Scope;
      /** The level's own definitions, in nginx order (empty when only proxy_params defines the set). */
      directives: Directive[];
      /** Every definition is under a template guard within the level (none of it may be rendered). */
      conditional: boolean;
      /** An unfollowed `include proxy_params;` at the level, for proxy_set_header. */
      proxyParams: Directive | undefined;
    }
  | { kind: 'none' }
  | { kind: 'unknown' };

type Unseen = { kind: 'nothing' } | { kind: 'unknown' } | { kind: 'proxy-params'; include: Directive };

/** The include directives the workspace has a problem with (missing, outside, cycle, limit). */
const includesWithProblems = perWorkspace(
  (workspace: Workspace): ReadonlySet<Directive> => new Set(workspace.includeProblems.map((problem) => problem.directive)),
);

function unseenAt(workspace: Workspace, level: Scope, name: string): Unseen {
  let proxyParams: Directive | undefined;
  for (const include of unfollowedIncludes(level)) {
    const target = include.args[0];
    if (!target || target.templated || target.variables.length > 0) return { kind: 'unknown' };
    if (includesWithProblems(workspace).has(include)) return { kind: 'unknown' };
    if (path.posix.basename(target.value) === 'proxy_params' && name === 'proxy_set_header') proxyParams = include;
  }
  return proxyParams ? { kind: 'proxy-params', include: proxyParams } : { kind: 'nothing' };
}

// Every lookup climbs through the same few levels (a server, its http): decide each level once.
const ownSyntaxProblems = new MemoMap<Scope, boolean>();

/** A syntax problem among the level's own statements (not inside its nested blocks): a definition may be lost. */
function hasOwnSyntaxProblem(level: Scope): boolean {
  const file = level.block?.file ?? level.root.file;
  // Most files have none; skipping the nested-block scan keeps lookups linear in a file with thousands of servers.
  if (file.syntaxProblems.length === 0) return false;
  let known = ownSyntaxProblems.get(level);
  if (known === undefined) {
    known = scanOwnSyntaxProblems(level, file);
    ownSyntaxProblems.set(level, known);
  }
  return known;
}

function scanOwnSyntaxProblems(level: Scope, file: ConfigFile): boolean {
  const span = level.block?.blockSpan ?? { startOffset: 0, endOffset: file.text.length };
  const inside = file.syntaxProblems.filter(
    (problem) => problem.span.startOffset >= span.startOffset && problem.span.startOffset < span.endOffset,
  );
  if (inside.length === 0) return false;
  const nested = level.children.flatMap((child) => (child.block?.file === file && child.block.blockSpan ? [child.block.blockSpan] : []));
  return inside.some(
    (problem) => !nested.some((inner) => problem.span.startOffset >= inner.startOffset && problem.span.startOffset < inner.endOffset),
  );
}

/** A level whose statements may not be what nginx reads: a syntax problem of its own, or past the first (misread.ts). */
export function unreadLevel(level: Scope): boolean {
  return hasOwnSyntaxProblem(level) || isMisreadLevel(level);
}

// The template guards every pass directly in a scope sits under: nginx only ever runs those passes where the
// template rendered them, so a definition under the same guards is there for them (Dokku's `{{ if
// $.DOKKU_APP_WEB_LISTENERS }}` wraps both `proxy_pass` and `proxy_http_version 1.1`).
const passGuardsByScope = new MemoMap<Scope, readonly TemplateGuard[]>();

function passGuards(scope: Scope): readonly TemplateGuard[] {
  let guards = passGuardsByScope.get(scope);
  if (!guards) {
    const passes = scope.statements.filter((statement) => statement.name.endsWith('_pass'));
    guards = passes.length === 0 ? [] : passes[0]!.guards.filter((guard) => passes.every((pass) => pass.guards.includes(guard)));
    passGuardsByScope.set(scope, guards);
  }
  return guards;
}

/**
 * The template guards that make `directive` conditional at `level`, as seen from `scope`: those inside the level
 * (scopes.ts guardsWithin) that the passes in `scope` are not under as well.
 */
export function conditionalGuards(directive: Directive, level: Scope, scope: Scope): TemplateGuard[] {
  const given = passGuards(scope);
  return guardsWithin(directive, level).filter((guard) => !given.includes(guard));
}

/**
 * True when `name` is unknown at `scope` only because of a level above `top` (an include there that could not be
 * read, a syntax problem): `scope` up to `top` neither define nor hide it, so a definition written in `top` would
 * be the effective one, whatever the hidden level holds (nginx's nearest level wins).
 */
export function hiddenOnlyAbove(workspace: Workspace, scope: Scope, top: Scope, name: string): boolean {
  if (lookupDirective(workspace, scope, name).kind !== 'unknown') return false;
  for (const level of inheritanceChain(scope)) {
    if (unreadLevel(level) || unseenAt(workspace, level, name).kind === 'unknown') return false;
    if (statementsNamed(level, name).length > 0) return false;
    if (level === top) return true;
  }
  return false;
}

export function lookupDirective(workspace: Workspace, scope: Scope, name: string): Lookup {
  for (const level of inheritanceChain(scope)) {
    if (unreadLevel(level)) return { kind: 'unknown' };
    const unseen = unseenAt(workspace, level, name);
    if (unseen.kind === 'unknown') return unseen;
    const named = statementsNamed(level, name);
    const proxyParams = unseen.kind === 'proxy-params' ? unseen.include : undefined;
    // Most levels have none: the copy is made for the level that answers only.
    if (named.length === 0 && !proxyParams) continue;
    const directives = [...named];
    const conditional =
      !proxyParams && directives.every((directive) => conditionalGuards(directive, level, scope).length > 0);
    return { kind: 'found', level, directives, conditional, proxyParams };
  }
  return { kind: 'none' };
}

export function headerKeysOf(found: Extract<Lookup, { kind: 'found' }>): Set<string> {
  const keys = new Set<string>();
  if (found.proxyParams) PROXY_PARAMS_HEADERS.forEach((header) => keys.add(headerKey(header)));
  for (const directive of found.directives) {
    const name = directive.args[0];
    if (name) keys.add(headerKey(name.value));
  }
  return keys;
}
