// --statistics (ruff's): after the stylish report, the number of findings per rule, most frequent first, with how
// many of them --fix would fix. Plain columns, for a first look at a large tree before fixing or suppressing.
import { isFixable, type Finding } from '../util/types.js';
import { isUnsafeFix } from '../engine/fix-safety.js';
import { createPalette } from './color.js';
import type { FileReport } from './report.js';

interface RuleCount {
  ruleId: string;
  count: number;
  safe: number;
  unsafe: number;
}

/** Empty when there are no findings (the stylish report then prints nothing either). */
export function formatStatistics(reports: readonly FileReport[], options: { color: boolean; unsafeFixes?: boolean }): string {
  const byRule = new Map<string, RuleCount>();
  for (const report of reports) for (const finding of report.findings) tally(byRule, finding);
  if (byRule.size === 0) return '';
  const counts = [...byRule.values()].sort((a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  // A reduce, not Math.max(...): one argument per element is the shape test/robustness/stack-safety.test.ts forbids.
  const countWidth = counts.reduce((max, entry) => Math.max(max, String(entry.count).length), 0);
  const idWidth = counts.reduce((max, entry) => Math.max(max, entry.ruleId.length), 0);
  const palette = createPalette(options.color);
  const lines = counts.map((entry) => {
    const fixable = fixableNote(entry, options.unsafeFixes === true);
    const row = `  ${String(entry.count).padStart(countWidth)}  ${entry.ruleId}`;
    return fixable === '' ? row : `${row.padEnd(countWidth + idWidth + 4)}  ${palette.dim(fixable)}`;
  });
  return `\n${palette.bold('Findings per rule:')}\n${lines.join('\n')}\n`;
}

function tally(byRule: Map<string, RuleCount>, finding: Finding): void {
  let entry = byRule.get(finding.ruleId);
  if (!entry) byRule.set(finding.ruleId, (entry = { ruleId: finding.ruleId, count: 0, safe: 0, unsafe: 0 }));
  entry.count++;
  if (!isFixable(finding)) return;
  if (isUnsafeFix(finding)) entry.unsafe++;
  else entry.safe++;
}

/** "2 fixable", "2 fixable, 1 more with --unsafe-fixes", "1 fixable with --unsafe-fixes", or nothing. */
function fixableNote({ safe, unsafe }: RuleCount, unsafeFixes: boolean): string {
  if (unsafe === 0) return safe === 0 ? '' : `${safe} fixable`;
  if (unsafeFixes) return `${safe + unsafe} fixable`;
  return safe === 0 ? `${unsafe} fixable with --unsafe-fixes` : `${safe} fixable, ${unsafe} more with --unsafe-fixes`;
}
