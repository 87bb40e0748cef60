// The language server's reuse of an earlier analysis: when the only change since is typing in arguments no rule reads
// (model/incremental-model.ts INERT_ARGUMENT_DIRECTIVES: a server_name, a root), every rule would find what it found
// before, moved with the text. The rules are not run again; the findings are moved instead. Anything else — another
// file changed, other settings, an edit that is not inert, a finding the edit cuts into — runs the rules.
//
// A moved finding's fix is built by a fresh analysis when first read (a fix reads the model the rule's state held,
// which has moved on), so a quick fix offered on a moved finding is the one a fresh analysis offers. An edit that is
// not inert but stays in one block goes to block-rerun.ts, which moves findings the same way.
import type { Rule } from '../analysis/rule-api.js';
import { modelEditOf, type ModelEdit } from '../model/incremental-model.js';
import type { Workspace } from '../model/workspace.js';
import type { Finding, Fix, Severity, Span } from '../util/types.js';
import type { AnalyzeOptions } from './types.js';

/**
 * A finding of the previous analysis, moved: the same enumerable fields (so it serialises and compares as the
 * original), with a fix built afresh when first read. A class rather than a copy given a property per finding:
 * thousands are made per keystroke in a large file.
 */
export class MovedFinding implements Finding {
  // Declared only: the fields are the original finding's own (Object.assign), in its order.
  declare ruleId: string;
  declare severity: Severity;
  declare message: string;
  declare file: string;
  declare span: Span;
  declare detail?: string;
  declare withheld?: string;
  declare unsafeFix?: true;
  declare fixable?: true;
  readonly #fixOf: (finding: Finding) => Fix | undefined;
  readonly #identity: object;

  constructor(finding: Finding, span: Span, fixOf: (finding: Finding) => Fix | undefined) {
    if (finding instanceof MovedFinding) {
      // A move of a move (every keystroke after the first): its fields are a Finding's, copied one by one in the
      // order findingOf() gives them, which took half the time Object.assign did for the thousands of a large file.
      this.ruleId = finding.ruleId;
      this.severity = finding.severity;
      this.message = finding.message;
      this.file = finding.file;
      this.span = span;
      if (finding.detail !== undefined) this.detail = finding.detail;
      if (finding.withheld !== undefined) this.withheld = finding.withheld;
      if (finding.unsafeFix) this.unsafeFix = true;
      if (finding.fixable) this.fixable = true;
    } else {
      Object.assign(this, finding);
      this.span = span;
    }
    this.#fixOf = fixOf;
    this.#identity = findingIdentity(finding);
  }

  /** The identity of the finding a rule reported, which this one is a move of (findingIdentity). */
  get identity(): object {
    return this.#identity;
  }

  get fix(): Fix | undefined {
    if (!this.fixable) return undefined;
    const fix = this.#fixOf(this);
    Object.defineProperty(this, 'fix', { value: fix, configurable: true, enumerable: false, writable: true });
    return fix;
  }
}

const identities = new WeakMap<Finding, object>();

/**
 * An object standing for the finding a rule reported, the same for every move of it through any number of analyses
 * (every field but the span is that finding's): the language server keeps each finding's diagnostic by it
 * (lsp/diagnostic-reuse.ts). Not the finding itself, whose fix holds the model of the analysis that found it.
 */
export function findingIdentity(finding: Finding): object {
  if (finding instanceof MovedFinding) return finding.identity;
  let identity = identities.get(finding);
  if (!identity) identities.set(finding, (identity = {}));
  return identity;
}

/** What a later analysis of the same documents may reuse. */
export interface ReusableAnalysis {
  workspace: Workspace;
  /** Every rule's findings, deduplicated, before suppression comments are applied. */
  ruleFindings: readonly Finding[];
  rules: readonly Rule[];
  optionsKey: string;
}

/** The options that decide findings, as a string: two analyses with equal keys run the rules alike. */
export function optionsKeyOf(options: AnalyzeOptions): string {
  const { nginxVersion, contexts, rules, pathMap, readRoots, extraDirectives, keepaliveConnections, maxFileBytes } = options;
  return JSON.stringify([nginxVersion, contexts, rules, pathMap, readRoots, extraDirectives, keepaliveConnections, maxFileBytes]);
}

/** `previous` and what changed since: the one file whose model was derived from its model there, or null (nothing). */
export interface EditSince {
  previous: ReusableAnalysis;
  edited: { file: string; edit: ModelEdit } | null;
}

/**
 * What changed since `previous` when this analysis may build on it (the same rules and options, the same files but
 * one derived from its previous model); undefined when every rule must run.
 */
export function editSince(
  previous: ReusableAnalysis | undefined,
  workspace: Workspace,
  rules: readonly Rule[],
  optionsKey: string,
): EditSince | undefined {
  if (!previous || previous.rules !== rules || previous.optionsKey !== optionsKey) return undefined;
  if (previous.workspace.files.length !== workspace.files.length || previous.workspace.roots.length !== workspace.roots.length) return undefined;
  const before = new Map(previous.workspace.files.map((file) => [file.path, file] as const));
  let edited: { file: string; edit: ModelEdit } | null = null;
  for (const file of workspace.files) {
    const old = before.get(file.path);
    if (old === file) continue;
    const edit = modelEditOf(file);
    if (!old || !edit || edit.previous !== old || edited) return undefined;
    edited = { file: file.path, edit };
  }
  return { previous, edited };
}

/**
 * `span` after the edit, or undefined when the edit cuts into it or touches its start or its end: text typed where a
 * span ends or starts may extend the token it covers, and a finding can cover an inert argument (the directive rule
 * shows a misplaced server_name on its argument when that alone shares the line of its `;`). The stretch covers every
 * edit since the last analysis: one starting inside a span and ending after it may have changed only text after the
 * span (edits far apart), so where the span ends is not known.
 */
export function spanAfter(span: Span, { stretch, move, carried }: ModelEdit): Span | undefined {
  // A span of the model the edit carried over in place is already where it lies in the new text.
  if (carried(span)) return span;
  if (span.endOffset < stretch.start) return span;
  if (span.startOffset > stretch.oldEnd) return move(span);
  if (span.startOffset >= stretch.start || stretch.oldEnd >= span.endOffset) return undefined;
  // Around the edit (a finding on a whole block typed in): it starts where it did and ends where its end moved.
  const end = move({ start: span.end, end: span.end, startOffset: span.endOffset, endOffset: span.endOffset });
  return { start: span.start, end: end.end, startOffset: span.startOffset, endOffset: end.endOffset };
}

/** A moved finding's fix: the same finding's in a fresh analysis, which runs (once) when the first fix is asked. */
export function freshFixes(fresh: () => readonly Finding[]): (finding: Finding) => Fix | undefined {
  let freshFindings: readonly Finding[] | undefined;
  return (finding) => {
    freshFindings ??= fresh();
    const same = freshFindings.find(
      (candidate) =>
        candidate.ruleId === finding.ruleId &&
        candidate.file === finding.file &&
        candidate.span.startOffset === finding.span.startOffset &&
        candidate.span.endOffset === finding.span.endOffset &&
        candidate.message === finding.message,
    );
    return same?.fix;
  };
}

/**
 * The previous analysis's rule findings, moved, each with a fix built by `fresh()` when read, when nothing but inert
 * arguments changed since; undefined when the rules must run.
 */
export function reusedRuleFindings(since: EditSince | undefined, fresh: () => readonly Finding[]): Finding[] | undefined {
  if (!since || (since.edited && !since.edited.edit.inertOnly)) return undefined;
  const { previous, edited } = since;
  const fixOf = freshFixes(fresh);
  const moved: Finding[] = [];
  for (const finding of previous.ruleFindings) {
    let span = finding.span;
    if (edited && finding.file === edited.file) {
      const after = spanAfter(span, edited.edit);
      if (!after) return undefined;
      span = after;
    }
    moved.push(new MovedFinding(finding, span, fixOf));
  }
  return moved;
}
