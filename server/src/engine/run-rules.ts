// Running the rules: each rule's detect() and message() for every state, its fix attached to be built when read.
// analyze() runs every rule over the whole workspace; the language server's block re-run (block-rerun.ts) runs some
// within one edited block.
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';
import type { Workspace } from '../model/workspace.js';
import { EMPTY_SPAN } from '../model/span.js';
import { attachLazyFix } from './lazy-fix.js';
import type { Finding, Severity, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from './types.js';

export const INTERNAL_ERROR_RULE_ID = 'internal-error';

export function configuredSeverity(rule: Rule, options: AnalyzeOptions): Severity | undefined {
  const setting = options.rules?.[rule.meta.id] ?? rule.meta.defaultSeverity;
  return setting === 'off' ? undefined : setting;
}

/** Where a rule failure is shown: the first root (or document), since a crash belongs to no particular line. */
export function internalErrorFile(workspace: Workspace, docs: readonly SourceDocument[]): string | undefined {
  return workspace.roots[0]?.file.path ?? docs[0]?.path;
}

/**
 * Runs one rule: detect() and message() for every state; the fix is attached to be built when read (lazy-fix.ts).
 * A state's own severity (e.g. information for a template-guarded finding) lowers the configured one, never raises
 * it (a rule set to info stays info); otherwise the configured severity applies. A state that says why its fix is withheld ends its message with the reason. A rule that throws
 * keeps what it reported before and adds an internal-error finding.
 */
export function runRule(rule: Rule, severity: Severity, context: RuleContext, crashFile?: string): Finding[] {
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

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const lower = (own: Severity | undefined, configured: Severity): Severity => (own !== undefined && RANK[own] < RANK[configured] ? own : configured);

export function findingOf(rule: Rule, state: RuleState, severity: Severity, context: RuleContext): Finding {
  const { headline, detail } = rule.message(state, context);
  const finding: Finding = { ruleId: rule.meta.id, severity: lower(state.severity, severity), message: headline, file: state.file, span: state.span };
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

export function dedupe(findings: Finding[]): Finding[] {
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

/** Every rule's findings, deduplicated (before suppression comments apply). */
export function runRules(workspace: Workspace, docs: readonly SourceDocument[], options: AnalyzeOptions, resolved: RuleContext['options'], rules: readonly Rule[]): Finding[] {
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
