// A cheap guess, from the texts alone, at which documents must be analyzed together: those linked by an include, and
// those sharing an upstream name that one of them uses without defining it. It only has to be good, not exact: the
// batches' footprints are checked after the analysis and any batches that did interact are merged and analyzed again
// (conflicts.ts), so a wrong guess costs time, never a different result.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compileGlob, hasGlobMagic } from '../../util/glob.js';
import type { PathMapping, SourceDocument } from '../../util/types.js';
import { parsePassTarget } from '../../analysis/passes.js';
import { upstreamKey } from '../../analysis/upstreams.js';
import { mapAbsolutePath } from '../../model/includes.js';
import { createReadScope, globBase, isUnder } from '../../model/read-scope.js';
import { statementsOf, type Statements } from './linking-statements.js';
import { UnionFind } from './union-find.js';

export interface GroupHints {
  readRoots: readonly string[];
  pathMap: readonly PathMapping[];
}

/** Where `include value` may point: nginx's prefix and, for a file that is not main, each ancestor in the roots. */
function includeCandidates(value: string, document: string, hints: GroupHints): string[] {
  if (path.isAbsolute(value)) return [value, mapAbsolutePath(value, hints.pathMap)].filter((p) => p !== undefined);
  const inRoots = (directory: string) => hints.readRoots.some((root) => isUnder(directory, root));
  const candidates: string[] = [];
  for (let directory = path.dirname(document); ; directory = path.dirname(directory)) {
    candidates.push(path.resolve(directory, value));
    if (path.dirname(directory) === directory || !inRoots(path.dirname(directory))) return candidates;
  }
}

function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

class DocumentIndex {
  readonly byPath = new Map<string, number>();
  readonly byDirectory = new Map<string, number[]>();

  constructor(readonly paths: readonly string[]) {
    paths.forEach((file, index) => {
      this.byPath.set(file, index);
      pushTo(this.byDirectory, path.dirname(file), index);
    });
  }

  /** Documents a glob matches; only the glob's own directory is searched when that part has no wildcard. */
  matching(glob: string): number[] {
    const matcher = compileGlob(glob, { globstar: false });
    const directory = path.dirname(glob);
    const pool = hasGlobMagic(directory) ? this.paths.map((_, index) => index) : (this.byDirectory.get(directory) ?? []);
    return pool.filter((index) => matcher.test(this.paths[index]!));
  }
}

interface IncludeReach {
  /** Documents the include may pull in. */
  targets: number[];
  /** Paths (or globs) outside the documents it may read: two includers of one of them are tied. */
  shared: string[];
}

function linkIncludes(statements: readonly Statements[], index: DocumentIndex, hints: GroupHints, sets: UnionFind) {
  const existing = new Map<string, boolean>();
  const exists = (file: string) => existing.get(file) ?? existing.set(file, existsSync(file)).get(file)!;
  // analyze() reads nothing outside the read roots and path-map targets (model/read-scope.ts). Only what it may read
  // can tie two includers: a missing `mime.types` tried in every ancestor directory would tie them all.
  // Asked of the scope first, which resolves links without following one out: `include etclink/shadow` must not
  // stat /etc/shadow even to guess groups.
  const scope = createReadScope([...hints.readRoots, ...hints.pathMap.map((mapping) => mapping.to)]);
  const readable = (file: string) => scope.allows(file) && exists(file);
  // The same include in the same directory reaches the same files: sibling documents share most of their includes.
  const reaches = new Map<string, IncludeReach>();
  const reachOf = (value: string, includer: string): IncludeReach => {
    const key = `${path.dirname(includer)}\0${value}`;
    let reach = reaches.get(key);
    if (!reach) {
      reach = { targets: [], shared: [] };
      for (const candidate of includeCandidates(value, includer, hints)) {
        const isGlob = hasGlobMagic(candidate);
        const found = isGlob ? index.matching(candidate) : [index.byPath.get(candidate)];
        // A loop: a glob may match 150,000 files, too many arguments to spread into push.
        for (const target of found) if (target !== undefined) reach.targets.push(target);
        if (readable(isGlob ? globBase(candidate) : candidate)) reach.shared.push(candidate);
      }
      reaches.set(key, reach);
    }
    return reach;
  };
  const firstIncluder = new Map<string, number>();
  statements.forEach(({ includes }, includer) => {
    for (const value of includes) {
      if (value.includes('$') || value.includes('{{') || value === '') continue;
      const { targets, shared } = reachOf(value, index.paths[includer]!);
      for (const target of targets) sets.union(includer, target);
      for (const candidate of shared) {
        const earlier = firstIncluder.get(candidate);
        if (earlier === undefined) firstIncluder.set(candidate, includer);
        else sets.union(earlier, includer);
      }
    }
  });
}

function linkUpstreamNames(statements: readonly Statements[], sets: UnionFind) {
  // Pass targets repeat across a fleet's files: parse each distinct one once.
  const hosts = new Map<string, string | undefined>();
  const hostOf = (value: string) => (hosts.has(value) ? hosts.get(value) : hosts.set(value, parsePassTarget(value).host).get(value));
  const definers = new Map<string, number[]>();
  const needers = new Map<string, number[]>();
  statements.forEach(({ upstreams, passes }, index) => {
    const defined = new Set(upstreams.map(upstreamKey));
    const used = new Set(passes.map(hostOf).filter((host) => host !== undefined).map(upstreamKey));
    defined.forEach((key) => pushTo(definers, key, index));
    used.forEach((key) => defined.has(key) || pushTo(needers, key, index));
  });
  for (const [key, needing] of needers) {
    const defining = definers.get(key);
    if (defining) sets.unionAll([...needing, ...defining]);
  }
}

/**
 * Groups of document indices (each ascending, ordered by first member) that are likely independent of each other.
 * `statements`: each document's statementsOf, when the caller scanned them already (in the workers).
 */
export function predictGroups(
  documents: readonly SourceDocument[],
  hints: GroupHints,
  statements: readonly Statements[] = documents.map((document) => statementsOf(document.text)),
): number[][] {
  const sets = new UnionFind(documents.length);
  const index = new DocumentIndex(documents.map((document) => path.resolve(document.path)));
  linkIncludes(statements, index, hints, sets);
  linkUpstreamNames(statements, sets);
  return sets.components();
}
