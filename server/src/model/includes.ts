// Where an `include` points, resolved the way nginx resolves it.
//
// nginx resolves a relative include path against its configuration prefix (the directory of the main nginx.conf),
// not against the including file's directory. A root in the main context therefore resolves against its own
// directory. A root that is not main (a site file checked on its own) does not know where the main config lives, so
// its directory is tried first and then each ancestor directory: `sites-enabled/x` including `snippets/y.conf`
// finds `<parent>/snippets/y.conf`, as it would under /etc/nginx.
import path from 'node:path';
import { hasGlobMagic } from '../core/glob.js';
import type { FileHost, PathMapping } from '../core/types.js';
import type { Argument, ContextName, Directive } from './types.js';

export interface IncludeSearch {
  host: FileHost;
  pathMap: readonly PathMapping[];
  /** Directories a relative include path is tried against, in order. */
  prefixes: readonly string[];
}

export type IncludeResolution =
  /** Absolute paths in the order nginx reads them (a glob matching nothing gives none, as nginx accepts). */
  | { kind: 'resolved'; paths: string[] }
  | { kind: 'missing'; message: string };

/** The path argument of an include we can follow; undefined for templated or `$`-variable paths, or bad arity. */
export function includeTarget(directive: Directive): Argument | undefined {
  if (directive.name !== 'include' || directive.args.length !== 1) return undefined;
  const arg = directive.args[0]!;
  if (arg.templated || arg.variables.length > 0 || arg.value.includes('$') || arg.value === '') return undefined;
  return arg;
}

/** The conf-prefix candidates for a root (see the file comment). */
export function includePrefixes(rootPath: string, context: ContextName): string[] {
  const directory = path.dirname(path.resolve(rootPath));
  if (context === 'main') return [directory];
  const prefixes = [directory];
  for (let dir = directory; path.dirname(dir) !== dir; ) {
    dir = path.dirname(dir);
    prefixes.push(dir);
  }
  return prefixes;
}

function isUnder(filePath: string, directory: string): boolean {
  return filePath === directory || filePath.startsWith(directory.endsWith('/') ? directory : `${directory}/`);
}

/** Applies the longest matching `from` prefix; undefined when no mapping applies. */
export function mapAbsolutePath(filePath: string, pathMap: readonly PathMapping[]): string | undefined {
  let best: PathMapping | undefined;
  for (const mapping of pathMap) {
    const from = mapping.from.replace(/(.)\/+$/, '$1');
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

function expand(candidate: string, host: FileHost): string[] {
  if (hasGlobMagic(candidate)) return host.glob(candidate);
  return host.exists(candidate) ? [candidate] : [];
}

function missing(includePath: string, looked: string): IncludeResolution {
  return { kind: 'missing', message: `include file "${includePath}" not found (${looked})` };
}

function resolveAbsolute(includePath: string, search: IncludeSearch): IncludeResolution {
  const mapped = mapAbsolutePath(includePath, search.pathMap);
  const paths = expand(mapped ?? includePath, search.host);
  if (paths.length > 0 || hasGlobMagic(includePath) || isWellKnownNginxFile(includePath)) {
    return { kind: 'resolved', paths };
  }
  return missing(includePath, mapped ? `mapped to ${mapped}` : 'no path mapping applies');
}

function resolveRelative(includePath: string, search: IncludeSearch): IncludeResolution {
  for (const prefix of search.prefixes) {
    const paths = expand(path.join(prefix, includePath), search.host);
    if (paths.length > 0) return { kind: 'resolved', paths };
  }
  if (hasGlobMagic(includePath) || isWellKnownNginxFile(includePath)) return { kind: 'resolved', paths: [] };
  const first = search.prefixes[0] ?? '.';
  const looked = search.prefixes.length > 1 ? `looked in ${first} and its parent directories` : `looked in ${first}`;
  return missing(includePath, looked);
}

export function resolveInclude(includePath: string, search: IncludeSearch): IncludeResolution {
  return path.isAbsolute(includePath) ? resolveAbsolute(includePath, search) : resolveRelative(includePath, search);
}
