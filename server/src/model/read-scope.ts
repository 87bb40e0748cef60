// Where the checker may read. Following includes must never touch the disk of the machine running the linter beyond
// what the user asked to check (the read roots) and what they mapped explicitly (--path-map targets): an unmapped
// `include /etc/nginx/sites-enabled/*;` describes the deployment's disk, not this one's, and reading it here would
// both leak local files into findings and check the wrong configuration.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { resolvedPath } from '../util/paths.js';
import { hasGlobMagic } from '../util/glob.js';

export interface ReadScope {
  /**
   * True when the absolute path `candidate` lies inside an allowed area both as written and after following
   * symlinks (a link inside a root pointing outside is outside). A path outside as written is never touched.
   */
  allows(candidate: string): boolean;
  /** Equal for two scopes of the same areas (the disk taken as unchanged): lets a cache tell their answers alike. */
  readonly key: string;
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
  for (let current = filePath; ; ) {
    if (areas.has(current)) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/** `areas` are absolute files or directories; a directory allows everything below it. */
export function createReadScope(areas: readonly string[]): ReadScope {
  const written = new Set(areas.map(resolvedPath));
  // Resolved lazily, the areas no other area contains first: with thousands of documents under one read root, the
  // root alone usually answers, and resolving every document's symlinks would cost system calls per path segment.
  // Asked once per directory: thousands of documents share a few.
  const directoryUnderArea = new Map<string, boolean>();
  const outermost = [...written].filter((area) => {
    const parent = path.dirname(area);
    if (parent === area) return true;
    let under = directoryUnderArea.get(parent);
    if (under === undefined) directoryUnderArea.set(parent, (under = isUnderAny(parent, written)));
    return !under;
  });
  const outermostSet = new Set(outermost);
  const inner = [...written].filter((area) => !outermostSet.has(area));
  let resolvedOuter: Set<string> | undefined;
  let resolvedAll: Set<string> | undefined;
  let ancestorsOuter: Set<string> | undefined;
  let ancestorsAll: Set<string> | undefined;
  const isInside = (real: string): boolean => {
    resolvedOuter ??= new Set(outermost.map(realPath));
    if (isUnderAny(real, resolvedOuter)) return true;
    resolvedAll ??= new Set([...resolvedOuter, ...inner.map(realPath)]);
    return isUnderAny(real, resolvedAll);
  };
  // A directory above an area (`/`, `/home`): a link target may pass through it on its way back in. It is a real
  // path (an area's real path has no link in it), so it is crossed without asking the disk.
  const isAbove = (real: string): boolean => {
    ancestorsOuter ??= ancestorsOf(resolvedOuter!);
    if (ancestorsOuter.has(real)) return true;
    ancestorsAll ??= ancestorsOf(resolvedAll!);
    return ancestorsAll.has(real);
  };
  // An area as the user wrote it, or a directory above one, which may be a link (`/tmp -> /private/tmp`): a link
  // target written through it is resolved there, as resolving the area itself does.
  let writtenPaths: Set<string> | undefined;
  const isAboveAsWritten = (candidate: string): boolean =>
    (writtenPaths ??= new Set([...written, ...ancestorsOf(written)])).has(candidate);
  const resolver = new ConfinedResolver(isInside, isAbove, isAboveAsWritten);
  // A scope lives for one analysis, during which the disk is taken as fixed; each included file is asked about more
  // than once.
  const answers = new Map<string, boolean>();
  // The areas' own real paths, one realpath each rather than one per candidate path.
  const anchorReal = new Map<string, string>();
  const decide = (absolute: string): boolean => {
    const anchor = outermostAreaAbove(absolute, written);
    if (anchor === undefined || inVersionControlMetadata(absolute, anchor)) return false;
    const resolved = resolver.resolve(absolute, anchor);
    if (resolved === OUTSIDE || !isInside(resolved.real)) return false;
    let real = anchorReal.get(anchor);
    if (real === undefined) anchorReal.set(anchor, (real = realPath(anchor)));
    return !inVersionControlMetadata(resolved.real, real);
  };
  let key: string | undefined;
  return {
    // One string per scope, built when first asked: a cache hashes the same string object once.
    get key() {
      return (key ??= [...written].sort().join('\0'));
    },
    allows(candidate) {
      const absolute = resolvedPath(candidate);
      let answer = answers.get(absolute);
      if (answer === undefined) {
        answer = decide(absolute);
        answers.set(absolute, answer);
      }
      return answer;
    },
  };
}

/**
 * Version-control metadata is never configuration, and `.git/config` holds CI credentials (actions/checkout writes
 * the job's token there): `include .git/config;` in a pull request would otherwise print it in a code frame. The
 * directory walk skips these directories; includes (as written, or through a link) may not enter them either.
 */
const VERSION_CONTROL_DIRECTORIES = new Set(['.git', '.hg', '.svn']);

function inVersionControlMetadata(filePath: string, base: string): boolean {
  if (!isUnder(filePath, base)) return false;
  return filePath
    .slice(base.length)
    .split('/')
    .some((segment) => VERSION_CONTROL_DIRECTORIES.has(segment));
}

/** The highest of `areas` that is `filePath` or lies above it; undefined when none does. */
function outermostAreaAbove(filePath: string, areas: ReadonlySet<string>): string | undefined {
  let found: string | undefined;
  for (let current = filePath; ; ) {
    if (areas.has(current)) found = current;
    const parent = path.dirname(current);
    if (parent === current) return found;
    current = parent;
  }
}

function ancestorsOf(paths: ReadonlySet<string>): Set<string> {
  const ancestors = new Set<string>();
  for (const real of paths) {
    for (let current = path.dirname(real); !ancestors.has(current); current = path.dirname(current)) {
      ancestors.add(current);
      if (path.dirname(current) === current) break;
    }
  }
  return ancestors;
}

const OUTSIDE = Symbol('outside');
/** `missing`: from this component on, nothing exists; the rest is kept as written. */
type Resolution = { real: string; missing: boolean } | typeof OUTSIDE;
/** As the kernel's own limit (ELOOP): a chain of links longer than this resolves no further. */
const MAX_LINKS = 40;

/**
 * Resolves symbolic links one path component at a time, from an area down, and gives up (OUTSIDE) at the first
 * component whose resolved path lies outside the areas, before asking the disk anything about it. realpath(3) would
 * lstat every component of a link's target, so `x -> /etc` followed by `x/shadow` would test whether /etc/shadow
 * exists: docs/security.md promises such files are never even tested for existence.
 */
class ConfinedResolver {
  private readonly resolved = new Map<string, Resolution>();

  constructor(
    private readonly isInside: (real: string) => boolean,
    private readonly isAbove: (real: string) => boolean,
    private readonly isAboveAsWritten: (candidate: string) => boolean,
  ) {}

  /** `absolute` lies below (or is) `anchor`, an area whose own real path is trusted: the user named it. */
  resolve(absolute: string, anchor: string): Resolution {
    const known = this.resolved.get(absolute);
    if (known !== undefined) return known;
    let resolution: Resolution;
    if (absolute === anchor) {
      resolution = { real: realPath(anchor), missing: false };
    } else {
      // Iterative over the ancestors would save little: paths are a few dozen components deep at most.
      const parent = this.resolve(path.dirname(absolute), anchor);
      if (parent === OUTSIDE) resolution = OUTSIDE;
      else if (parent.missing) resolution = { real: path.join(parent.real, path.basename(absolute)), missing: true };
      else resolution = this.step(parent.real, path.basename(absolute));
    }
    this.resolved.set(absolute, resolution);
    return resolution;
  }

  /** `directory` is a real path inside; `name` one component, resolved through as many links as it leads to. */
  private step(directory: string, name: string): Resolution {
    const pending = [name];
    let current = directory;
    let links = 0;
    while (pending.length > 0) {
      const component = pending.pop()!;
      if (component === '' || component === '.') continue;
      if (component === '..') {
        // `current` has no link in it, so `..` is its parent: nothing to ask the disk.
        current = path.dirname(current);
        continue;
      }
      // `current` is a real path and `component` one name: joined as path.join would, without normalizing again.
      const next = path.sep !== '/' ? path.join(current, component) : current === '/' ? `/${component}` : `${current}/${component}`;
      if (!this.isInside(next)) {
        if (this.isAbove(next)) {
          current = next;
          continue;
        }
        if (!this.isAboveAsWritten(next)) return OUTSIDE;
      }
      let target: string | undefined;
      try {
        target = lstatSync(next).isSymbolicLink() ? readlinkSync(next) : undefined;
      } catch {
        return { real: path.join(next, ...pending.reverse()), missing: true };
      }
      if (target === undefined) {
        current = next;
      } else if (++links > MAX_LINKS) {
        // A loop: reading it fails later with ELOOP, which is reported with the path.
        return { real: path.join(next, ...pending.reverse()), missing: true };
      } else {
        if (path.isAbsolute(target)) current = path.parse(target).root;
        const parts = target.split('/');
        for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
      }
    }
    return { real: current, missing: false };
  }
}
