// Which offered fixes a run applies (ruff's model, util/types.ts FixSafety): `--fix` and the editor's "fix all" take
// the safe ones, `--unsafe-fixes` adds the rest. Answered from the finding's cheap flags whenever it has them, so
// counting fixable findings (JSON, the stylish summary) never builds an edit.
import { isFixable, type Finding } from '../util/types.js';

/**
 * The finding's offered fix is unsafe. A rule's finding says so in `unsafeFix` (its `fix` is lazy and is not read);
 * a finding made with its fix in hand (a suppression's) only has the built fix's `safety`.
 */
export function isUnsafeFix(finding: Finding): boolean {
  if (finding.unsafeFix === true) return true;
  return finding.fixable !== true && finding.fix?.safety === 'unsafe';
}

/** The finding offers a fix that a run with (or without) `--unsafe-fixes` applies. */
export function fixApplies(finding: Finding, unsafe: boolean): boolean {
  return isFixable(finding) && (unsafe || !isUnsafeFix(finding));
}

export interface FixableCounts {
  /** Fixable by `--fix` (with `--unsafe-fixes` when the run has it). */
  applied: number;
  /** Fixable only with `--unsafe-fixes`, which the run does not have (0 when it has). */
  unsafeOnly: number;
}

export function countFixable(findings: Iterable<Finding>, unsafe: boolean): FixableCounts {
  const counts: FixableCounts = { applied: 0, unsafeOnly: 0 };
  for (const finding of findings) {
    if (!isFixable(finding)) continue;
    if (fixApplies(finding, unsafe)) counts.applied++;
    else counts.unsafeOnly++;
  }
  return counts;
}
