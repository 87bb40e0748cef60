// The headless entry point: documents in, findings out. The CLI and the language server both call this.
import { loadNginxParser, parserIfLoaded, ParserNotLoaded } from '../parser/loader.js';
import type { ParserLike } from '../model/file-loader.js';
import { optionsKeyOf, reusedRuleFindings, type ReusableAnalysis } from './finding-reuse.js';
import { buildWorkspace, type Workspace } from '../model/workspace.js';
import { EMPTY_SPAN } from '../model/span.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';
import { attachLazyFix } from './lazy-fix.js';
import type { Finding, Severity, SourceDocument } from '../util/types.js';
import { createFsHost } from '../util/fs-host.js';
import { resolveOptions } from './options.js';
import { applySuppressions, UNUSED_SUPPRESSION_RULE_ID } from './suppressions.js';
import type { AnalyzeOptions } from './types.js';

export const INTERNAL_ERROR_RULE_ID = 'internal-error';

function configuredSeverity(rule: Rule, options: AnalyzeOptions): Severity | undefined {
  const setting = options.rules?.[rule.meta.id] ?? rule.meta.defaultSeverity;
  return setting === 'off' ? undefined : setting;
}

/** Where a rule failure is shown: the first root (or document), since a crash belongs to no particular line. */
function internalErrorFile(workspace: Workspace, docs: readonly SourceDocument[]): string | undefined {
  return workspace.roots[0]?.file.path ?? docs[0]?.path;
}

/**
 * Runs one rule: detect() and message() for every state; the fix is attached to be built when read (lazy-fix.ts).
 * A state's own severity (e.g. information for a template-guarded finding) is kept; otherwise the configured
 * severity applies. A state that says why its fix is withheld ends its message with the reason. A rule that throws
 * keeps what it reported before and adds an internal-error finding.
 */
function runRule(rule: Rule, severity: Severity, context: RuleContext, crashFile?: string): Finding[] {
  const findings: Finding[] = [];
  try {
    for (const state of rule.detect(context)) findings.push(findingOf(rule, state, severity, context));
  } catch (error) {
    if (crashFile !== undefined) {
      const reason = error instanceof Error ? error.message : String(error);
      findings.push({
        ruleId: INTERNAL_ERROR_RULE_ID,
        severity: 'error',
        message: `rule "${rule.meta.id}" failed: ${reason}`,
        file: crashFile,
        span: EMPTY_SPAN,
      });
    }
  }
  return findings;
}

function findingOf(rule: Rule, state: RuleState, severity: Severity, context: RuleContext): Finding {
  const { headline, detail } = rule.message(state, context);
  const finding: Finding = { ruleId: rule.meta.id, severity: state.severity ?? severity, message: headline, file: state.file, span: state.span };
  if (detail !== undefined) finding.detail = detail;
  if (state.withheld !== undefined) finding.withheld = state.withheld;
  const fix = rule.fix;
  if (!fix || state.withheld !== undefined || state.noFix) return finding;
  if (state.unsafeFix) finding.unsafeFix = true;
  attachLazyFix(finding, () => {
    const built = buildFix(rule, fix, state, context);
    // The state decided the safety (JSON and the editor read it without building): the fix carries the same.
    return built && state.unsafeFix ? { ...built, safety: 'unsafe' } : built;
  });
  return finding;
}

/** A fix builder that throws offers no fix: the finding stays, as it would for edits that cannot be built. */
function buildFix(rule: Rule, fix: NonNullable<Rule['fix']>, state: RuleState, context: RuleContext) {
  try {
    return fix.call(rule, state, context);
  } catch {
    return undefined;
  }
}

function dedupe(findings: Finding[]): Finding[] {
  // Keyed without the message: joining thousands of long messages into keys cost more than the rules on a big file.
  // Findings at the same place from the same rule are few, so their messages are compared directly.
  const seen = new Map<string, string[]>();
  return findings.filter((finding) => {
    const key = `${finding.ruleId}\0${finding.file}\0${finding.span.startOffset}\0${finding.span.endOffset}`;
    const messages = seen.get(key);
    if (!messages) {
      seen.set(key, [finding.message]);
      return true;
    }
    if (messages.includes(finding.message)) return false;
    messages.push(finding.message);
    return true;
  });
}

/** analyze()'s order of findings: by file, then position, then rule id. `check --jobs` merges batches with it too. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.span.startOffset - b.span.startOffset || a.span.endOffset - b.span.endOffset || a.ruleId.localeCompare(b.ruleId);
}

export interface WorkspaceAnalysis extends ReusableAnalysis {
  findings: Finding[];
  /** The model the findings were computed from (the language server answers hovers and definitions from it). */
  workspace: Workspace;
  /** True when the previous analysis's findings were moved instead of running the rules (finding-reuse.ts). */
  reused: boolean;
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
 * whose findings are reused when nothing but inert arguments changed since (finding-reuse.ts; the language server).
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
  const resolved = resolveOptions(options);
  const workspace = buildWorkspace(docs, options.host ?? createFsHost({ maxFileBytes: options.maxFileBytes }), parser, {
    pathMap: options.pathMap,
    readRoots: options.readRoots,
    models: options.models,
    contexts: options.contexts,
  });
  const optionsKey = optionsKeyOf(options);
  const fresh = () => analyzeParsed(parser, docs, options, rules, undefined).findings;
  const reusedFindings = reusedRuleFindings(previous, workspace, rules, optionsKey, fresh);
  const ruleFindings = reusedFindings ?? runRules(workspace, docs, options, resolved, rules);
  const unusedSuppression = rules.find((rule) => rule.meta.id === UNUSED_SUPPRESSION_RULE_ID);
  const kept = applySuppressions(workspace.files, ruleFindings, {
    knownRuleIds: new Set(rules.map((rule) => rule.meta.id)),
    unusedSeverity: unusedSuppression && configuredSeverity(unusedSuppression, options),
  });
  // A copy when no suppression applied: the rule findings are kept, unsorted, for the next analysis to reuse.
  const findings = (kept === ruleFindings ? kept.slice() : kept).sort(compareFindings);
  return { findings, workspace, ruleFindings, rules, optionsKey, reused: reusedFindings !== undefined };
}

/** Every rule's findings, deduplicated (before suppression comments apply). */
function runRules(workspace: Workspace, docs: readonly SourceDocument[], options: AnalyzeOptions, resolved: RuleContext['options'], rules: readonly Rule[]): Finding[] {
  const crashFile = internalErrorFile(workspace, docs);
  const context: RuleContext = { workspace, options: resolved };
  const findings: Finding[] = [];
  for (const rule of rules) {
    const severity = configuredSeverity(rule, options);
    // A loop, not spreading into push: 150,000 findings of one rule (a 300 KB file of `{}`) overflow the stack as arguments.
    if (severity) for (const finding of runRule(rule, severity, context, crashFile)) findings.push(finding);
  }
  return dedupe(findings);
}
