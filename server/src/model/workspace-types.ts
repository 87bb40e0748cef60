// The workspace's shapes: its roots, include edges and include problems, and the options it is built with
// (built in workspace.ts).
import type { PathMapping, Span } from '../util/types.js';
import type { ContextBasis } from './context.js';
import type { ExpansionScope, IncludeLimits } from './expand.js';
import type { ConfigFile, ContextName, Directive, ModelCache } from './types.js';

export interface WorkspaceRoot {
  file: ConfigFile;
  /** The context of the root file's top level. */
  context: ContextName;
  /** How it is known (model/context.ts); a fix relying on an `unknown` one is withheld. Default: inferred. */
  basis?: ContextBasis;
  /** Directories relative include paths are tried against, in order (see model/includes.ts). */
  prefixes: string[];
  /** Include edges as resolved under this root: include directive -> the files it pulls in, in nginx's order. */
  includes: Map<Directive, ConfigFile[]>;
}

/** `outside`: the include leads outside the read roots and path-map targets, so it was deliberately not followed. */
export type IncludeProblemKind = 'missing' | 'cycle' | 'limit' | 'outside';

export interface IncludeProblem {
  file: ConfigFile;
  /** The include directive the problem is reported at. */
  directive: Directive;
  /** The include's path argument (the directive when it has none). */
  span: Span;
  /** A headline under 100 characters. */
  message: string;
  /** The particulars: full paths, where it looked, what to map. */
  detail?: string;
  kind: IncludeProblemKind;
}

export interface Workspace {
  /** Every parsed file: the documents first, then included files in the order they were reached. */
  files: ConfigFile[];
  roots: WorkspaceRoot[];
  /** Include edges of all roots together (a directive reached under two roots has the union of its targets). */
  includes: Map<Directive, ConfigFile[]>;
  includeProblems: IncludeProblem[];
  /** The bounds the includes were expanded with; walkEffective replays them. */
  limits: IncludeLimits;
}

export interface WorkspaceOptions {
  /** Absolute `from` prefixes mapped onto directories; `to` must already be absolute. */
  pathMap?: readonly PathMapping[];
  /**
   * Absolute files or directories includes may be read from, besides the path-map targets and the documents
   * themselves. Defaults to the documents' directories.
   */
  readRoots?: readonly string[];
  limits?: IncludeLimits;
  models?: ModelCache;
  /** Top-level contexts given for documents checked on their own, by absolute path (AnalyzeOptions.contexts). */
  contexts?: Readonly<Record<string, ContextName>>;
}

/** What the walker tells its visitor about where a directive effectively sits. */
export interface EffectiveScope extends ExpansionScope {
  root: WorkspaceRoot;
}

export type EffectiveVisitor = (directive: Directive, scope: EffectiveScope) => boolean | void;
