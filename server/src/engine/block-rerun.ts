// The language server's re-run of the rules after an edit confined to one block: a server, location, upstream...
// that model/incremental-model.ts re-read alone, the edit adding or removing no line, no include (which pulls other
// files into the block) and no load_module (which changes how every directive of the file is judged).
//
// A rule that can look within a block (Rule.detectWithin: the `directive` rule, which checks each directive where
// nginx reads it) decides that block again and keeps its previous findings elsewhere, moved with the text. Every other
// rule's findings elsewhere may depend on what the block holds (the users of an upstream, the first pass to reach an
// inherited header): such a rule keeps all its previous findings, moved, when the block's readable shape
// (analysis/readable-shape.ts: what those rules can read of it) is unchanged — typing a listen port or a return's
// URL. A rule declaring what it reads across blocks (Rule.readsAcrossBlocks) is re-run on the edited block and those
// linked to it by an upstream name, in a workspace without the others (linked-blocks.ts), and keeps its findings in
// the others, moved. Any other rule runs on everything.
//
// The result equals a fresh analysis: test/property/incremental-analysis.test.ts compares the two after any edits.
import { readableShape } from '../analysis/readable-shape.js';
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';
import type { ModelEdit } from '../model/incremental-model.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import type { Finding, SourceDocument } from '../util/types.js';
import { freshFixes, MovedFinding, spanAfter, type EditSince, type ReusableAnalysis } from './finding-reuse.js';
import { linkedPlan, type LinkedPlan } from './linked-blocks.js';
import { configuredSeverity, dedupe, findingOf, internalErrorFile, INTERNAL_ERROR_RULE_ID, runRule } from './run-rules.js';
import type { AnalyzeOptions } from './types.js';

/** Directives that change what is read beyond their block: other files, or the modules every directive is judged by. */
const CROSS_BLOCK_NAMES: ReadonlySet<string> = new Set(['include', 'load_module']);

function holdsCrossBlock(directive: Directive): boolean {
  return CROSS_BLOCK_NAMES.has(directive.name) || directive.children.some(holdsCrossBlock);
}

export interface ConfinedEdit {
  file: string;
  edit: ModelEdit;
}

/** The edit since the previous analysis when it is confined to one block as the header says; otherwise undefined. */
export function confinedEdit(since: EditSince | undefined): ConfinedEdit | undefined {
  const edited = since?.edited;
  if (!edited) return undefined;
  const { edit } = edited;
  // A line break removed or typed moves the lines messages quote ("first on line 12"), even where the count is kept.
  if (!edit.linesKept || holdsCrossBlock(edit.replaced) || holdsCrossBlock(edit.edited)) return undefined;
  // A rule that failed last time reported no findings of its own to keep.
  if (since.previous.ruleFindings.some((finding) => finding.ruleId === INTERNAL_ERROR_RULE_ID)) return undefined;
  return edited;
}

/** The rule's states within the block, or undefined when it cannot tell (or fails: the full run reports that). */
function statesWithin(rule: Rule, context: RuleContext, block: Directive): RuleState[] | undefined {
  if (!rule.detectWithin) return undefined;
  try {
    return rule.detectWithin(context, block);
  } catch {
    return undefined;
  }
}

/**
 * The rule's previous findings, moved (those inside the replaced block dropped when `outsideOnly`); undefined if one
 * cannot be moved (the edit cuts into it).
 */
function keptFindings(
  previous: readonly Finding[],
  edited: ConfinedEdit,
  fixOf: ReturnType<typeof freshFixes>,
  outsideOnly: boolean,
): Finding[] | undefined {
  const { file, edit } = edited;
  const kept: Finding[] = [];
  for (const finding of previous) {
    if (finding.file !== file) {
      kept.push(finding);
      continue;
    }
    if (outsideOnly && insideReplaced(finding, edited)) continue;
    const span = spanAfter(finding.span, edit);
    if (!span) return undefined;
    kept.push(new MovedFinding(finding, span, fixOf));
  }
  return kept;
}

export interface RerunInputs {
  edited: ConfinedEdit;
  previous: ReusableAnalysis;
  workspace: Workspace;
  docs: readonly SourceDocument[];
  options: AnalyzeOptions;
  resolved: RuleContext['options'];
  rules: readonly Rule[];
  /** A fresh analysis's findings (the fixes of moved findings are read from it). */
  fresh: () => readonly Finding[];
}

export interface Rerun {
  /** Every rule's findings, deduplicated (before suppression comments apply). */
  findings: Finding[];
  /** The rules that ran on everything (their id): those that could neither look within the block nor keep theirs. */
  ranWhole: string[];
  /** The rules re-run on the linked blocks only (linked-blocks.ts). */
  ranLinked: string[];
}

/**
 * The same roots in the same contexts: a root's context is inferred from all its text (a stream snippet's upstream
 * is no http one), so an edit in one block that changes it changes findings anywhere.
 */
function sameRoots(before: Workspace, after: Workspace): boolean {
  if (before.roots.length !== after.roots.length) return false;
  return before.roots.every((root, at) => {
    const other = after.roots[at]!;
    return other.file.path === root.file.path && other.context === root.context && other.basis === root.basis;
  });
}

/** Previous findings inside the replaced block (offsets of the previous text; a carried span lies after it). */
function insideReplaced(finding: Finding, { file, edit }: ConfinedEdit): boolean {
  const { startOffset, endOffset } = edit.replaced.span;
  return finding.file === file && !edit.carried(finding.span) && finding.span.startOffset >= startOffset && finding.span.endOffset <= endOffset;
}

/**
 * The rule's findings after a linked re-run: its states in the decided blocks (their fixes built by a fresh analysis,
 * as a moved finding's), its previous findings in the other blocks, moved; undefined when a finding, old or new, lies
 * outside every block (or the rule fails in the view): the rule then runs on everything.
 */
function linkedFindings(
  rule: Rule,
  severity: NonNullable<ReturnType<typeof configuredSeverity>>,
  plan: LinkedPlan,
  resolved: RuleContext['options'],
  before: readonly Finding[],
  edited: ConfinedEdit,
  fixOf: ReturnType<typeof freshFixes>,
): { kept: Finding[]; found: Finding[] } | undefined {
  const context: RuleContext = { workspace: plan.view, options: resolved };
  let states: RuleState[];
  try {
    states = rule.detect(context);
  } catch {
    return undefined;
  }
  const found: Finding[] = [];
  for (const state of states) {
    const place = plan.place(state.file, state.span);
    if (place === 'outer') return undefined;
    if (place === 'decided') found.push(new MovedFinding(findingOf(rule, state, severity, context), state.span, fixOf));
  }
  const kept: Finding[] = [];
  for (const finding of before) {
    if (insideReplaced(finding, edited)) continue;
    const span = finding.file === edited.file ? spanAfter(finding.span, edited.edit) : finding.span;
    if (!span) return undefined;
    const place = plan.place(finding.file, span);
    if (place === 'outer') return undefined;
    // As keptFindings(): a finding of the edited file gets its fix afresh (its state read the previous model).
    if (place === 'kept') kept.push(finding.file === edited.file ? new MovedFinding(finding, span, fixOf) : finding);
  }
  return { kept, found };
}

/** Every rule's findings after the confined edit. */
export function rerunWithinBlock({ edited, previous, workspace, docs, options, resolved, rules, fresh }: RerunInputs): Rerun {
  const context: RuleContext = { workspace, options: resolved };
  const crashFile = internalErrorFile(workspace, docs);
  const fixOf = freshFixes(fresh);
  const previousByRule = new Map<string, Finding[]>();
  for (const finding of previous.ruleFindings) {
    const list = previousByRule.get(finding.ruleId);
    if (list) list.push(finding);
    else previousByRule.set(finding.ruleId, [finding]);
  }
  const sameShape = readableShape(edited.edit.replaced) === readableShape(edited.edit.edited);
  // Kept findings were deduplicated when first found, and lie where no new one does (outside the block, or moved
  // unchanged): only the new ones are deduplicated, which on a large file is most of the work saved.
  const kept: Finding[] = [];
  const found: Finding[] = [];
  const ranWhole: string[] = [];
  const ranLinked: string[] = [];
  // The blocks linked to the edited one, in a workspace without the others: what the rules declaring their reads
  // across blocks re-run in, and where a rule looking within the block looks (it reads no other block's statements,
  // and the upstreams its passes name are there), which spares building every index of the whole workspace again.
  const plan = sameRoots(previous.workspace, workspace) ? linkedPlan(workspace, edited.edit) : undefined;
  const withinContext: RuleContext = plan ? { workspace: plan.view, options: resolved } : context;
  for (const rule of rules) {
    const severity = configuredSeverity(rule, options);
    if (!severity) continue;
    const before = previousByRule.get(rule.meta.id) ?? [];
    const within = statesWithin(rule, withinContext, edited.edit.edited);
    // A rule that can look within a block reads all of it (readable-shape.ts speaks for the others): if it declines, it runs.
    const ruleKept = within
      ? keptFindings(before, edited, fixOf, true)
      : sameShape && !rule.detectWithin
        ? keptFindings(before, edited, fixOf, false)
        : undefined;
    if (!ruleKept && rule.readsAcrossBlocks === 'upstream-links') {
      const linked = plan && linkedFindings(rule, severity, plan, resolved, before, edited, fixOf);
      if (linked) {
        ranLinked.push(rule.meta.id);
        for (const finding of linked.kept) kept.push(finding);
        for (const finding of linked.found) found.push(finding);
        continue;
      }
    }
    if (!ruleKept) {
      ranWhole.push(rule.meta.id);
      for (const finding of runRule(rule, severity, context, crashFile)) found.push(finding);
      continue;
    }
    for (const finding of ruleKept) kept.push(finding);
    if (within) for (const state of within) found.push(findingOf(rule, state, severity, withinContext));
  }
  const findings = dedupe(found);
  for (const finding of kept) findings.push(finding);
  return { findings, ranWhole, ranLinked };
}
