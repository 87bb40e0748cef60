// Where an `include` points, resolved the way nginx resolves it, but only inside the read scope (model/read-scope.ts).
//
// nginx resolves a relative include path against its configuration prefix (the directory of the main nginx.conf),
// not against the including file's directory. A root in the main context therefore resolves against its own
// directory. A root that is not main (a site file checked on its own) does not know where the main config lives, so
// its directory is tried first and then each ancestor directory inside the read scope: `sites-enabled/x` including
// `snippets/y.conf` finds `<parent>/snippets/y.conf`, as it would under /etc/nginx.
import path from 'node:path';
import { joinedPath, resolvedPath } from '../util/paths.js';
import { MAX_GLOB_DIRECTORIES } from '../util/fs-host.js';
import { hasGlobMagic } from '../util/glob.js';
import { trimTrailingSlashes } from '../util/path-map.js';
import type { FileHost, PathMapping } from '../util/types.js';
import { DEFAULT_INCLUDE_LIMITS } from './expand.js';
import { globBase, isUnder, type ReadScope } from './read-scope.js';
import type { Argument, ContextName, Directive } from './types.js';
import { shortened } from '../util/shortened.js';

export interface IncludeSearch {
  host: FileHost;
  pathMap: readonly PathMapping[];
  /** Directories a relative include path is tried against, in order. */
  prefixes: readonly string[];
  /** Nothing outside it is read, globbed or tested for existence. */
  scope: ReadScope;
  /**
   * The directory of the main config being expanded (a root in the main context): nginx's configuration prefix, so an
   * absolute include under the conventional prefix the config was written for (`/etc/nginx/conf.d/*.conf`) that no
   * path mapping covers is that directory's `conf.d/*.conf` when the checked tree holds it (see resolveAbsolute).
   */
  mainDirectory?: string;
  /**
   * Matches one glob returns at most. Default: one past the include limit, so a glob matching more stops while it
   * is expanded (not after listing 150,000 files) and the include limit still names the first file not followed.
   */
  maxGlobMatches?: number;
}

export interface IncludeResolution {
  /** Absolute paths in the order nginx reads them (a glob matching nothing gives none, as nginx accepts). */
  paths: string[];
  /** Why the include, or part of what it matches, is not followed. */
  /** `message` is a headline under 100 characters; `detail` the particulars (full paths, where it looked). */
  problem?: { kind: 'missing' | 'outside' | 'limit'; message: string; detail?: string };
}

/** The path argument of an include we can follow; undefined for templated or `$`-variable paths, or bad arity. */
export function includeTarget(directive: Directive): Argument | undefined {
  if (directive.name !== 'include' || directive.args.length !== 1) return undefined;
  const arg = directive.args[0]!;
  if (arg.templated || arg.variables.length > 0 || arg.value.includes('$') || arg.value === '') return undefined;
  return arg;
}

/** The conf-prefix candidates for a root (see the file comment). The climb stops where the read scope ends. */
export function includePrefixes(rootPath: string, context: ContextName, scope: ReadScope): string[] {
  const directory = path.dirname(resolvedPath(rootPath));
  if (context === 'main') return [directory];
  const prefixes = [directory];
  for (let dir = directory; path.dirname(dir) !== dir && scope.allows(path.dirname(dir)); ) {
    dir = path.dirname(dir);
    prefixes.push(dir);
  }
  return prefixes;
}

/** Applies the longest matching `from` prefix; undefined when no mapping applies. */
export function mapAbsolutePath(filePath: string, pathMap: readonly PathMapping[]): string | undefined {
  let best: PathMapping | undefined;
  for (const mapping of pathMap) {
    const from = trimTrailingSlashes(mapping.from);
    if (isUnder(filePath, from) && (!best || from.length > best.from.length)) best = { from, to: mapping.to };
  }
  if (!best) return undefined;
  const rest = filePath.slice(best.from.length).replace(/^\/+/, '');
  return path.resolve(best.to, rest);
}

const WELL_KNOWN_FILES = new Set([
  'mime.types',
  'fastcgi_params',
  'fastcgi.conf',
  'scgi_params',
  'uwsgi_params',
  'koi-utf',
  'koi-win',
  'win-utf',
  'proxy_params',
]);

/** Files nginx or its distribution packages ship: a repository rarely carries them, so their absence is expected. */
export function isWellKnownNginxFile(includePath: string): boolean {
  return (
    WELL_KNOWN_FILES.has(path.posix.basename(includePath)) ||
    /(^|\/)snippets\/fastcgi-php\.conf$/.test(includePath) ||
    /(^|\/)modules-enabled\//.test(includePath)
  );
}

type Expansion =
  | { kind: 'outside' }
  /**
   * `escaped`: matches, or directories on the way to them, that are symlinks leading outside the read scope.
   * `cut`: the glob stopped at its directory bound, so files below the directories it did not enter are missing.
   */
  | { kind: 'inside'; paths: string[]; escaped: string[]; cut: boolean };

/** Expands one candidate path or glob, asking the host nothing unless the candidate lies inside the read scope. */
function expandConfined(candidate: string, search: IncludeSearch): Expansion {
  const isGlob = hasGlobMagic(candidate);
  if (!search.scope.allows(isGlob ? globBase(candidate) : candidate)) return { kind: 'outside' };
  if (!isGlob) return { kind: 'inside', paths: search.host.exists(candidate) ? [candidate] : [], escaped: [], cut: false };
  const escaped: string[] = [];
  let cut = false;
  const maxMatches = search.maxGlobMatches ?? DEFAULT_INCLUDE_LIMITS.maxIncludedFiles + 1;
  // The scope is asked at every directory the glob descends into, before it lists or tests anything there.
  const found = search.host.glob(candidate, {
    allows: (directory) => search.scope.allows(directory),
    outside: (refused) => escaped.push(refused),
    maxMatches,
    maxDirectories: MAX_GLOB_DIRECTORIES,
    cacheKey: search.scope.key,
    // Too many matches is the include limit's to report (it names where it stopped); too many directories is not.
    limited: (bound) => (cut ||= bound === 'directories'),
  });
  // A host that ignores the confinement (an overlay in a test) is still held to the scope here.
  for (const match of found) if (!search.scope.allows(match)) escaped.push(match);
  return { kind: 'inside', paths: found.filter((match) => search.scope.allows(match)), escaped, cut };
}

/** The prefix a user would map: the conventional `.../nginx` directory, else the directory holding the include. */
function suggestedMapping(includePath: string): string {
  const conventional = /^(.*?\/nginx)(?=\/)/.exec(includePath);
  if (conventional) return conventional[1]!;
  const base = globBase(includePath);
  return base === includePath ? path.posix.dirname(includePath) : base;
}

/** Where the include leads, and what to do: a --path-map to suggest, or the mapping that led outside. */
type OutsideHint = { suggest: string } | { mapped: string } | undefined;

function outside(includePath: string, hint: OutsideHint): IncludeResolution['problem'] {
  const shown = shortened(includePath, 32);
  if (hint && 'suggest' in hint) {
    return {
      kind: 'outside',
      message: `include "${shown}" is outside the checked paths: map it with --path-map`,
      detail: `Not followed. Check a copy of it with --path-map ${hint.suggest}=<dir>, <dir> holding the copy.`,
    };
  }
  const detail = hint ? `It is mapped to ${hint.mapped}, which is not among the checked paths.` : undefined;
  return { kind: 'outside', message: `include "${shown}" leads outside the checked paths: not followed`, detail };
}

function escapedLink(includePath: string, link: string): IncludeResolution['problem'] {
  return {
    kind: 'outside',
    message: `include "${shortened(includePath, 32)}" matches a link outside the checked paths: not followed`,
    detail: `The link: ${link}.`,
  };
}

/** `detail`: where it looked, as a sentence (`Looked in /srv/nginx.`, `It is mapped to /srv/x.conf.`). */
function missing(includePath: string, detail: string): IncludeResolution {
  const message = `include file "${shortened(includePath, 36)}" not found: fix the path or use --path-map`;
  return { paths: [], problem: { kind: 'missing', message, detail } };
}

function globCut(includePath: string): IncludeResolution['problem'] {
  return {
    kind: 'limit',
    message: `include "${shortened(includePath, 32)}" reaches over ${MAX_GLOB_DIRECTORIES} directories: the rest is not followed`,
    detail: 'The glob stopped there; the files below the other directories are not checked.',
  };
}

/** Something was found: matches, a link leading outside, or a glob cut short (the one problem worth most is kept). */
const foundAnything = (expansion: Extract<Expansion, { kind: 'inside' }>): boolean =>
  expansion.paths.length > 0 || expansion.escaped.length > 0 || expansion.cut;

function found(includePath: string, expansion: Extract<Expansion, { kind: 'inside' }>): IncludeResolution {
  const [link] = expansion.escaped;
  if (expansion.cut) return { paths: expansion.paths, problem: globCut(includePath) };
  return link === undefined ? { paths: expansion.paths } : { paths: expansion.paths, problem: escapedLink(includePath, link) };
}

/**
 * `/etc/nginx/conf.d/*.conf` in a main config checked at `<dir>/nginx.conf`, read as `<dir>/conf.d/*.conf`: a
 * repository holding nginx.conf beside conf.d/ and sites-enabled/ is the /etc/nginx it is installed as (Debian's
 * layout, the official image's). Only the conventional `.../nginx` prefix is replaced, only when no mapping applies,
 * and only when the checked tree has a match there: otherwise the include stays outside, with its --path-map hint.
 */
function asInstalled(normalized: string, search: IncludeSearch): Extract<Expansion, { kind: 'inside' }> | undefined {
  if (search.mainDirectory === undefined) return undefined;
  const conventional = /^(.*?\/nginx)(?=\/)/.exec(normalized);
  if (!conventional) return undefined;
  const candidate = path.join(search.mainDirectory, normalized.slice(conventional[1]!.length));
  const expansion = expandConfined(candidate, search);
  return expansion.kind === 'inside' && foundAnything(expansion) ? expansion : undefined;
}

function resolveAbsolute(includePath: string, search: IncludeSearch): IncludeResolution {
  // `..` is collapsed first, as the kernel would: `/etc/nginx/../../x` is not under a /etc/nginx mapping.
  const normalized = path.resolve(includePath);
  const mapped = mapAbsolutePath(normalized, search.pathMap);
  const expansion = expandConfined(mapped ?? normalized, search);
  const installed = expansion.kind === 'outside' && mapped === undefined ? asInstalled(normalized, search) : undefined;
  if (installed) return found(includePath, installed);
  if (expansion.kind === 'outside') {
    if (isWellKnownNginxFile(includePath)) return { paths: [] };
    const hint = mapped ? { mapped } : { suggest: suggestedMapping(normalized) };
    return { paths: [], problem: outside(includePath, hint) };
  }
  if (foundAnything(expansion)) return found(includePath, expansion);
  if (hasGlobMagic(includePath) || isWellKnownNginxFile(includePath)) return { paths: [] };
  return missing(includePath, mapped ? `It is mapped to ${mapped}.` : 'No path mapping applies to it.');
}

function resolveRelative(includePath: string, search: IncludeSearch): IncludeResolution {
  let reachedOutside = false;
  for (const prefix of search.prefixes) {
    const expansion = expandConfined(joinedPath(prefix, includePath), search);
    if (expansion.kind === 'outside') reachedOutside = true;
    else if (foundAnything(expansion)) return found(includePath, expansion);
  }
  if (isWellKnownNginxFile(includePath)) return { paths: [] };
  if (reachedOutside) return { paths: [], problem: outside(includePath, undefined) };
  if (hasGlobMagic(includePath)) return { paths: [] };
  const first = search.prefixes[0] ?? '.';
  const last = search.prefixes.at(-1) ?? first;
  return missing(includePath, last === first ? `Looked in ${first}.` : `Looked in ${first} and its parents up to ${last}.`);
}

export function resolveInclude(includePath: string, search: IncludeSearch): IncludeResolution {
  return path.isAbsolute(includePath) ? resolveAbsolute(includePath, search) : resolveRelative(includePath, search);
}
