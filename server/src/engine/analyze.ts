// The headless entry point: documents in, findings out. The CLI and the language server both call this.
import { loadNginxParser, parserIfLoaded, ParserNotLoaded } from '../parser/loader.js';
import type { ParserLike } from '../model/file-loader.js';
import { editSince, optionsKeyOf, reusedRuleFindings, type ReusableAnalysis } from './finding-reuse.js';
import { buildWorkspace, type Workspace } from '../model/workspace.js';
import { settleModelEdit } from '../model/incremental-model.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { Rule } from '../analysis/rule-api.js';
import { confinedEdit, rerunWithinBlock } from './block-rerun.js';
import { configuredSeverity, runRules } from './run-rules.js';
import type { Finding, SourceDocument } from '../util/types.js';
import { createFsHost } from '../util/fs-host.js';
import { resolveOptions } from './options.js';
import { applySuppressions, UNUSED_SUPPRESSION_RULE_ID } from './suppressions.js';
import type { AnalyzeOptions } from './types.js';
import { newMemoGeneration } from '../util/memo-map.js';

export { INTERNAL_ERROR_RULE_ID } from './run-rules.js';

/**
 * analyze()'s order of findings: by file, then position, then rule id. `check --jobs` merges batches with it too.
 * Rule ids are compared by code unit, not with localeCompare: for ids of lowercase ASCII letters, digits and hyphens
 * the order is the same (test/engine/compare-findings.test.ts holds it to localeCompare for every registered id), and
 * the first localeCompare of a process loads ICU's collation data: ~14 ms of a one-file `check` and ~2.4 MB of the
 * language server's RSS.
 */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.span.startOffset - b.span.startOffset || a.span.endOffset - b.span.endOffset || compareIds(a.ruleId, b.ruleId);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface WorkspaceAnalysis extends ReusableAnalysis {
  findings: Finding[];
  /** The model the findings were computed from (the language server answers hovers and definitions from it). */
  workspace: Workspace;
  /** True when the previous analysis's findings were moved instead of running the rules (finding-reuse.ts). */
  reused: boolean;
  /**
   * After an edit confined to one block (block-rerun.ts), the rules that still ran on everything; undefined when every
   * rule ran (or none: `reused`).
   */
  ranWhole: string[] | undefined;
  /** After such an edit, the rules re-run on the blocks linked to it only (linked-blocks.ts); undefined likewise. */
  ranLinked: string[] | undefined;
}

/**
 * Analyzes `docs` (and every file they include) with the registered rules. Findings may point at included files
 * that are not among `docs`; callers that only want some files filter the result.
 */
export async function analyze(
  docs: readonly SourceDocument[],
  options: AnalyzeOptions = {},
  rules: readonly Rule[] = registeredRules,
): Promise<Finding[]> {
  return (await analyzeWorkspace(docs, options, rules)).findings;
}

/**
 * analyze(), also returning the workspace model it built. `previous`: an earlier analysis of the same documents,
 * whose findings are reused when nothing but inert arguments changed since (finding-reuse.ts; the language server),
 * or re-decided within the one block an edit was confined to (block-rerun.ts).
 */
export async function analyzeWorkspace(
  docs: readonly SourceDocument[],
  options: AnalyzeOptions = {},
  rules: readonly Rule[] = registeredRules,
  previous?: ReusableAnalysis,
): Promise<WorkspaceAnalysis> {
  // The wasm parser is loaded only when a file needs it: most runs read only plain files, which the text reader reads.
  try {
    return analyzeParsed(parserIfLoaded(), docs, options, rules, previous);
  } catch (error) {
    if (!(error instanceof ParserNotLoaded)) throw error;
  }
  return analyzeParsed(await loadNginxParser(), docs, options, rules, previous);
}

function analyzeParsed(
  parser: ParserLike,
  docs: readonly SourceDocument[],
  options: AnalyzeOptions,
  rules: readonly Rule[],
  previous: ReusableAnalysis | undefined,
): WorkspaceAnalysis {
  // The analysis memos (util/memo-map.ts) keep this analysis' keys and what it reuses of the previous one's.
  newMemoGeneration();
  const resolved = resolveOptions(options);
  const workspace = buildWorkspace(docs, options.host ?? createFsHost({ maxFileBytes: options.maxFileBytes }), parser, {
    pathMap: options.pathMap,
    readRoots: options.readRoots,
    models: options.models,
    contexts: options.contexts,
  });
  const optionsKey = optionsKeyOf(options);
  const fresh = () => analyzeParsed(parser, docs, options, rules, undefined).findings;
  const since = editSince(previous, workspace, rules, optionsKey);
  const reusedFindings = reusedRuleFindings(since, fresh);
  const edited = reusedFindings ? undefined : confinedEdit(since);
  const rerun = edited && previous ? rerunWithinBlock({ edited, previous, workspace, docs, options, resolved, rules, fresh }) : undefined;
  // Rule findings are kept in the findings' order (a stable sort, so ties keep the order the rules gave): a reuse
  // moves them in that order, and the sort below then only confirms it, one comparison each, where it sorted the
  // thousands of a large file's findings again at every keystroke.
  const ruleFindings = reusedFindings ?? (rerun?.findings ?? runRules(workspace, docs, options, resolved, rules)).sort(compareFindings);
  const unusedSuppression = rules.find((rule) => rule.meta.id === UNUSED_SUPPRESSION_RULE_ID);
  const kept = applySuppressions(workspace.files, ruleFindings, {
    knownRuleIds: new Set(rules.map((rule) => rule.meta.id)),
    unusedSeverity: unusedSuppression && configuredSeverity(unusedSuppression, options),
  });
  // A copy when no suppression applied: the rule findings are kept as they are for the next analysis to reuse.
  const findings = (kept === ruleFindings ? kept.slice() : kept).sort(compareFindings);
  if (since?.edited) settleModelEdit(since.edited.edit);
  return { findings, workspace, ruleFindings, rules, optionsKey, reused: reusedFindings !== undefined, ranWhole: rerun?.ranWhole, ranLinked: rerun?.ranLinked };
}
