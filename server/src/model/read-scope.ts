// Where the checker may read. Following includes must never touch the disk of the machine running the linter beyond
// what the user asked to check (the read roots) and what they mapped explicitly (--path-map targets): an unmapped
// `include /etc/nginx/sites-enabled/*;` describes the deployment's disk, not this one's, and reading it here would
// both leak local files into findings and check the wrong configuration.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { hasGlobMagic } from '../core/glob.js';

export interface ReadScope {
  /**
   * True when the absolute path `candidate` lies inside an allowed area both as written and after following
   * symlinks (a link inside a root pointing outside is outside). A path outside as written is never touched.
   */
  allows(candidate: string): boolean;
}

export function isUnder(filePath: string, directory: string): boolean {
  return filePath === directory || filePath.startsWith(directory.endsWith('/') ? directory : `${directory}/`);
}

/**
 * The path with every symlink resolved. A path that does not exist resolves its nearest existing ancestor and keeps
 * the rest as written, so a missing file inside a root stays inside and a virtual path stays what it is.
 */
export function realPath(filePath: string): string {
  const absolute = path.resolve(filePath);
  const rest: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      if (path.dirname(current) === current) return absolute;
      rest.push(path.basename(current));
    }
  }
}

/** The directory a glob is expanded from: the segments before the first one with a wildcard. */
export function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const firstMagic = segments.findIndex(hasGlobMagic);
  if (firstMagic === -1) return pattern;
  return segments.slice(0, firstMagic).join('/') || '/';
}

/** True when `filePath` (absolute, normalised) is one of `areas` or lies below one: a look-up per ancestor. */
function isUnderAny(filePath: string, areas: ReadonlySet<string>): boolean {
  for (let current = filePath; ; current = path.dirname(current)) {
    if (areas.has(current)) return true;
    if (path.dirname(current) === current) return false;
  }
}

/** `areas` are absolute files or directories; a directory allows everything below it. */
export function createReadScope(areas: readonly string[]): ReadScope {
  const written = new Set(areas.map((area) => path.resolve(area)));
  // Resolved lazily, the areas no other area contains first: with thousands of documents under one read root, the
  // root alone usually answers, and resolving every document's symlinks would cost system calls per path segment.
  const outermost = [...written].filter((area) => area === path.dirname(area) || !isUnderAny(path.dirname(area), written));
  const inner = [...written].filter((area) => !outermost.includes(area));
  let resolvedOuter: Set<string> | undefined;
  let resolvedAll: Set<string> | undefined;
  // A scope lives for one analysis, during which the disk is taken as fixed; each included file is asked about more
  // than once.
  const answers = new Map<string, boolean>();
  const decide = (absolute: string): boolean => {
    if (!isUnderAny(absolute, written)) return false;
    const real = realPath(absolute);
    resolvedOuter ??= new Set(outermost.map(realPath));
    if (isUnderAny(real, resolvedOuter)) return true;
    resolvedAll ??= new Set([...resolvedOuter, ...inner.map(realPath)]);
    return isUnderAny(real, resolvedAll);
  };
  return {
    allows(candidate) {
      const absolute = path.resolve(candidate);
      let answer = answers.get(absolute);
      if (answer === undefined) {
        answer = decide(absolute);
        answers.set(absolute, answer);
      }
      return answer;
    },
  };
}
