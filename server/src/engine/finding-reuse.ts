// The language server's reuse of an earlier analysis: when the only change since is typing in arguments no rule reads
// (model/incremental-model.ts INERT_ARGUMENT_DIRECTIVES: a server_name, a root), every rule would find what it found
// before, moved with the text. The rules are not run again; the findings are moved instead. Anything else — another
// file changed, other settings, an edit that is not inert, a finding the edit cuts into — runs the rules.
//
// A moved finding's fix is built by a fresh analysis when first read (a fix reads the model the rule's state held,
// which has moved on), so a quick fix offered on a moved finding is the one a fresh analysis offers.
import type { Rule } from '../analysis/rule-api.js';
import { modelEditOf, type ModelEdit } from '../model/incremental-model.js';
import type { Workspace } from '../model/workspace.js';
import type { Finding, Span } from '../util/types.js';
import { attachLazyFix } from './lazy-fix.js';
import type { AnalyzeOptions } from './types.js';

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

/** The one file edited inertly since `previous`, or null when nothing changed; undefined when the rules must run. */
function inertEdit(previous: ReusableAnalysis, workspace: Workspace): { file: string; edit: ModelEdit } | null | undefined {
  if (previous.workspace.files.length !== workspace.files.length || previous.workspace.roots.length !== workspace.roots.length) return undefined;
  const before = new Map(previous.workspace.files.map((file) => [file.path, file] as const));
  let edited: { file: string; edit: ModelEdit } | null = null;
  for (const file of workspace.files) {
    const old = before.get(file.path);
    if (old === file) continue;
    const edit = modelEditOf(file);
    if (!old || !edit || edit.previous !== old || !edit.inertOnly || edited) return undefined;
    edited = { file: file.path, edit };
  }
  return edited;
}

/**
 * `span` after the edit, or undefined when the edit cuts into it. Text inserted where a span ends is not in it (a
 * token the edit extended is an inert argument, which no finding covers), and text inserted where it starts is
 * before it.
 */
function spanAfter(span: Span, { stretch, lines }: ModelEdit): Span | undefined {
  const { start, oldEnd, delta } = stretch;
  const end = span.endOffset <= start ? span.endOffset : span.endOffset >= oldEnd ? span.endOffset + delta : undefined;
  if (end === undefined) return undefined;
  if (span.startOffset === span.endOffset) return lines.span(end, end);
  const begin = span.startOffset < start ? span.startOffset : span.startOffset >= oldEnd ? span.startOffset + delta : undefined;
  return begin === undefined ? undefined : lines.span(begin, end);
}

/**
 * The previous analysis's rule findings for `workspace`, moved, each with a fix built by `fresh()` when read; or
 * undefined when the rules must run.
 */
export function reusedRuleFindings(
  previous: ReusableAnalysis | undefined,
  workspace: Workspace,
  rules: readonly Rule[],
  optionsKey: string,
  fresh: () => readonly Finding[],
): Finding[] | undefined {
  if (!previous || previous.rules !== rules || previous.optionsKey !== optionsKey) return undefined;
  const edited = inertEdit(previous, workspace);
  if (edited === undefined) return undefined;
  let freshFindings: readonly Finding[] | undefined;
  const fixOf = (finding: Finding) => {
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
  const moved: Finding[] = [];
  for (const finding of previous.ruleFindings) {
    let span = finding.span;
    if (edited && finding.file === edited.file) {
      const after = spanAfter(span, edited.edit);
      if (!after) return undefined;
      span = after;
    }
    // A copy: the enumerable fields (fixable, withheld, unsafeFix...) and a fix of its own, built afresh when read.
    const copy: Finding = { ...finding, span };
    if (finding.fixable) attachLazyFix(copy, () => fixOf(copy));
    moved.push(copy);
  }
  return moved;
}
