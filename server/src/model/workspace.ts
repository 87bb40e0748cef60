// The workspace: every file the documents reach, which of them are roots, and the include edges between them.
import type { FileHost, SourceDocument } from '../util/types.js';
import type { ConfigFile, ContextName, Directive } from './types.js';
import type {
  EffectiveScope, EffectiveVisitor, IncludeProblem, IncludeProblemKind, Workspace, WorkspaceOptions, WorkspaceRoot,
} from './workspace-types.js';
import { VIRTUAL_READ_SCOPE } from './virtual-host.js';
import { inferRootContext, rootContextOf } from './context.js';
import path from 'node:path';
import { resolvedPath } from '../util/paths.js';
import { shortened } from '../util/shortened.js';
import { DEFAULT_INCLUDE_LIMITS, expandRoot, type ExpansionScope } from './expand.js';
import { FileLoader, type ParserLike } from './file-loader.js';
import { includePrefixes, includeTarget, resolveInclude, type IncludeResolution, type IncludeSearch } from './includes.js';
import { createReadScope, type ReadScope } from './read-scope.js';

export type {
  EffectiveScope, EffectiveVisitor, IncludeProblem, IncludeProblemKind, Workspace, WorkspaceOptions, WorkspaceRoot,
} from './workspace-types.js';

interface RootExpansion {
  root: WorkspaceRoot;
  problems: IncludeProblem[];
  /** Files the root pulls in, the root itself excluded. */
  reached: Set<ConfigFile>;
}

function problemAt(include: Directive, kind: IncludeProblemKind, message: string, detail?: string): IncludeProblem {
  const problem: IncludeProblem = { file: include.file, directive: include, span: include.args[0]?.span ?? include.span, message, kind };
  if (detail !== undefined) problem.detail = detail;
  return problem;
}

function cycleMessage(include: Directive, target: ConfigFile): string {
  const name = shortened(path.basename(target.path), 40);
  if (target === include.file) return `include cycle: ${name} includes itself; remove this include`;
  return `include cycle: ${name} is already being included; remove this include`;
}

class WorkspaceBuilder {
  /**
   * Include resolutions by the directories searched, then the include's path, shared by every root. Two levels, not
   * one joined key: the two strings are each hashed once, where a joined key was a new string per include met.
   */
  private readonly resolutions = new Map<string, Map<string, IncludeResolution>>();

  constructor(
    private readonly loader: FileLoader,
    private readonly host: FileHost,
    private readonly options: WorkspaceOptions,
    private readonly scope: ReadScope,
  ) {}

  /** No context given for any document (the usual run): nothing to look up. */
  private noneGiven: boolean | undefined;

  /** The context the caller gave for `file`, when it is one of the documents checked on their own. */
  givenContext(file: ConfigFile): ContextName | undefined {
    const contexts = this.options.contexts;
    if (contexts === undefined || (this.noneGiven ??= Object.keys(contexts).length === 0)) return undefined;
    const key = resolvedPath(file.path);
    return Object.hasOwn(contexts, key) ? contexts[key] : undefined;
  }

  /** Include prefixes by the root's directory and whether it is main: the same for every root of a directory. */
  private readonly searches = new Map<string, { prefixes: string[]; searchKey: string }>();

  private searchOf(file: ConfigFile, context: ContextName): { prefixes: string[]; searchKey: string } {
    const key = `${context === 'main' ? 'main' : ''}\0${path.dirname(resolvedPath(file.path))}`;
    let known = this.searches.get(key);
    if (!known) {
      const prefixes = includePrefixes(file.path, context, this.scope);
      // `include fastcgi_params;` in every location and every site: each path is resolved once for all the roots
      // that search the same directories (the disk is taken as fixed; pathMap and the read scope are the workspace's).
      const searchKey = `${prefixes.join('\0')}\0${context === 'main' ? prefixes[0] : ''}\0`;
      known = { prefixes, searchKey };
      this.searches.set(key, known);
    }
    return known;
  }

  /** Expands `file` as a root, resolving every include it reaches. */
  expand(file: ConfigFile): RootExpansion {
    const { name: context, basis } = rootContextOf(file, this.givenContext(file));
    const { prefixes, searchKey } = this.searchOf(file, context);
    const root: WorkspaceRoot = { file, context, basis, prefixes, includes: new Map() };
    const search: IncludeSearch = { host: this.host, pathMap: this.options.pathMap ?? [], prefixes, scope: this.scope };
    if (context === 'main') search.mainDirectory = prefixes[0];
    let resolutions = this.resolutions.get(searchKey);
    if (!resolutions) this.resolutions.set(searchKey, (resolutions = new Map()));
    const resolveOnce = (includePath: string): IncludeResolution => {
      let resolution = resolutions.get(includePath);
      if (!resolution) {
        resolution = resolveInclude(includePath, search);
        resolutions.set(includePath, resolution);
      }
      return resolution;
    };
    const problems: IncludeProblem[] = [];
    const reached = new Set<ConfigFile>();
    let limitReported = false;
    expandRoot(
      file,
      context,
      {
        resolve: (include) => {
          const known = root.includes.get(include);
          if (known) return known;
          const files = this.resolve(include, resolveOnce, problems);
          root.includes.set(include, files);
          for (const target of files) if (target !== file) reached.add(target);
          return files;
        },
        cut: (include, kind, target) => {
          if (kind === 'cycle') {
            problems.push(problemAt(include, 'cycle', cycleMessage(include, target), `The file: ${target.path}.`));
          } else if (!limitReported) {
            limitReported = true;
            problems.push(
              problemAt(include, 'limit', 'include limit reached: this and later includes are not followed', `The first not followed: ${target.path}.`),
            );
          }
        },
      },
      this.options.limits ?? DEFAULT_INCLUDE_LIMITS,
    );
    return { root, problems, reached };
  }

  private resolve(
    include: Directive,
    resolveInclude: (includePath: string) => IncludeResolution,
    problems: IncludeProblem[],
  ): ConfigFile[] {
    const target = includeTarget(include);
    if (!target) return [];
    const resolution = resolveInclude(target.value);
    const problem = resolution.problem;
    if (problem) problems.push(problemAt(include, problem.kind, problem.message, problem.detail));
    const files: ConfigFile[] = [];
    for (const filePath of resolution.paths) {
      const file = this.loader.load(filePath);
      if (file) files.push(file);
      else problems.push(problemAt(include, 'missing', `include file "${shortened(path.basename(filePath), 48)}" cannot be read`, `The file: ${filePath}.`));
    }
    return files;
  }
}

/**
 * Picks the roots: documents no other root includes. Main-context documents go first; then, among the rest, those
 * reaching more documents first, so an includer is chosen before what it includes (in a cycle, one of them wins).
 */
function chooseRoots(documents: ConfigFile[], builder: WorkspaceBuilder): RootExpansion[] {
  const chosen: RootExpansion[] = [];
  const covered = new Set<ConfigFile>();
  const documentSet = new Set(documents);
  const main: ConfigFile[] = [];
  const others: ConfigFile[] = [];
  for (const file of documents) (inferRootContext(file, builder.givenContext(file)) === 'main' ? main : others).push(file);
  for (const group of [main, others]) {
    const candidates = group
      .filter((file) => !covered.has(file))
      .map((file) => builder.expand(file))
      .map((expansion) => ({ expansion, reachedDocuments: [...expansion.reached].filter((f) => documentSet.has(f)).length }))
      .sort((a, b) => b.reachedDocuments - a.reachedDocuments);
    for (const { expansion } of candidates) {
      if (covered.has(expansion.root.file)) continue;
      chosen.push(expansion);
      covered.add(expansion.root.file);
      for (const file of expansion.reached) covered.add(file);
    }
  }
  return chosen;
}

/**
 * The first problem of each file, offset, kind and message. Looked up one part at a time rather than by one joined
 * key: each root reports the includes it reaches again (thousands of times in a large tree), and the parts are
 * strings hashed once (a file's path, a resolution's message), where each joined key was a new string to hash.
 */
function uniqueProblems(problems: IncludeProblem[]): IncludeProblem[] {
  const seen = new Map<string, Map<number, Map<IncludeProblemKind, Set<string>>>>();
  return problems.filter((problem) => {
    let byOffset = seen.get(problem.file.path);
    if (!byOffset) seen.set(problem.file.path, (byOffset = new Map()));
    let byKind = byOffset.get(problem.span.startOffset);
    if (!byKind) byOffset.set(problem.span.startOffset, (byKind = new Map()));
    let messages = byKind.get(problem.kind);
    if (!messages) byKind.set(problem.kind, (messages = new Set()));
    if (messages.has(problem.message)) return false;
    messages.add(problem.message);
    return true;
  });
}

function mergeIncludes(roots: WorkspaceRoot[]): Map<Directive, ConfigFile[]> {
  const merged = new Map<Directive, ConfigFile[]>();
  for (const root of roots) {
    for (const [include, files] of root.includes) {
      const known = merged.get(include);
      if (!known) {
        // Shared with the root, not copied: neither list is changed once built (a merge below makes a new one).
        merged.set(include, files);
        continue;
      }
      // A Set, not includes(): a glob may pull in thousands of files under each of several roots.
      const seen = new Set(known);
      merged.set(include, [...known, ...files.filter((file) => !seen.has(file))]);
    }
  }
  return merged;
}

/** The read roots (the documents' directories by default), the path-map targets and the documents themselves. */
function readScopeOf(docs: readonly SourceDocument[], options: WorkspaceOptions): ReadScope {
  const documents = docs.map((doc) => resolvedPath(doc.path));
  const roots = options.readRoots ?? documents.map((document) => path.dirname(document));
  const targets = (options.pathMap ?? []).map((mapping) => mapping.to);
  return createReadScope([...roots, ...targets, ...documents]);
}

export function buildWorkspace(
  docs: readonly SourceDocument[],
  host: FileHost,
  parser: ParserLike,
  options: WorkspaceOptions = {},
): Workspace {
  const loader = new FileLoader(host, parser, docs, options.models);
  const documents = [...new Set(docs.map((doc) => loader.document(doc)))];
  // A virtual host (a dump's files) holds only what may be read, and no local path is what it seems there.
  const scope = host.virtual ? VIRTUAL_READ_SCOPE : readScopeOf(docs, options);
  const expansions = chooseRoots(documents, new WorkspaceBuilder(loader, host, options, scope));
  const roots = expansions.map((expansion) => expansion.root);
  return {
    files: loader.files,
    roots,
    includes: mergeIncludes(roots),
    includeProblems: uniqueProblems(expansions.flatMap((expansion) => expansion.problems)),
    limits: options.limits ?? DEFAULT_INCLUDE_LIMITS,
  };
}

/**
 * Visits every directive of every root in nginx's reading order, with each include replaced by the files it pulls
 * in. A directive in a file included from several places is visited once per place, each with its own scope.
 * Return false from the visitor to skip a directive's block (and, for an include, the included files).
 */
export function walkEffective(workspace: Workspace, visit: EffectiveVisitor): void {
  for (const root of workspace.roots) {
    // The statements of one block share their scope object: extend it once per block, not once per statement.
    let last: ExpansionScope | undefined;
    let effective: EffectiveScope | undefined;
    expandRoot(
      root.file,
      root.context,
      {
        resolve: (include) => root.includes.get(include) ?? [],
        wantsAncestors: true,
        visit: (directive, scope) => {
          if (scope !== last || !effective) {
            last = scope;
            // Spelled out: an object spread here cost more than the rest of the walk.
            effective = { context: scope.context, depth: scope.depth, ancestors: scope.ancestors, includedFrom: scope.includedFrom, root };
          }
          return visit(directive, effective);
        },
      },
      workspace.limits,
    );
  }
}
