// The exit code of a check run from what it found, as ESLint decides it (with our stricter default: any warning
// fails unless --max-warnings allows some).
import type { Finding } from '../util/types.js';
import { EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, type ExitCode } from './exit-codes.js';
import { countSeverities } from './report.js';

export interface ExitStatus {
  code: ExitCode;
  /** Why the run failed when the findings alone would not say so (too many warnings). */
  note?: string;
}

/**
 * `failed`: something could not be checked or written (exit 2 wins). `unsettled`: --fix stopped at its pass limit
 * (fix-run.ts said so), which fails the run whatever remains. Info findings never fail a run.
 */
export function exitStatus(
  findings: readonly Finding[],
  failed: boolean,
  maxWarnings: number | undefined,
  unsettled = false,
): ExitStatus {
  if (failed) return { code: EXIT_FAILURE };
  if (unsettled) return { code: EXIT_FINDINGS };
  const counts = countSeverities(findings);
  if (counts.error > 0) return { code: EXIT_FINDINGS };
  if (maxWarnings === undefined) return { code: counts.warning > 0 ? EXIT_FINDINGS : EXIT_CLEAN };
  if (counts.warning > maxWarnings) {
    return { code: EXIT_FINDINGS, note: `too many warnings (${counts.warning}; --max-warnings is ${maxWarnings})` };
  }
  return { code: EXIT_CLEAN };
}
