// The unsafe fixes a run without --unsafe-fixes left alone, followed through fixAll's passes: a fix that was unsafe
// when first offered stays refused however a later pass's analysis labels it. The root cause of the one leak seen is
// fixed where the verdict is made (analysis/third-party.ts: an upstream whose servers are a stranger's is a
// stranger's); this is the defence in depth for the next such case. A safe fix rewrites the text around a finding
// (proxy-pass-no-upstream turned a pass to a third party into a pass to a new upstream{}), and the next pass
// re-derives the finding from that text; if the new text hides what made the fix unsafe, the finding comes back with
// a "safe" fix.
//
// Identity across passes is the rule and a range of the file: from the end of the statement before the finding's
// (the last `;`, `{` or `}`) to the finding's start, carried through every applied edit. The range grows over what
// edits write into it or right at its ends: a safe fix inserting a statement before the finding's (upstream-
// keepalive's `proxy_set_header Connection "";` before the first proxy_set_header of a block, where
// proxy-set-header-inheritance reports) moves the finding onto the inserted statement, and a rewritten statement's
// finding is taken for the same one. Erring this way costs at most a safe fix of the same rule left for the next
// run; the other way could apply what was unsafe.
import { orderEdits } from '../fixes/edits.js';
import type { Finding, TextEdit } from '../util/types.js';

interface Range {
  start: number;
  end: number;
}

interface RuleRanges {
  /** Disjoint, in offset order: the findings withheld on earlier passes. */
  ranges: Range[];
  /** Noted this pass, joined at endPass() (sorting on each note was quadratic with thousands of them in a file). */
  pending: Range[];
}

export class WithheldFixes {
  /** By the session's name of the file, then by rule. */
  private readonly byFile = new Map<string, Map<string, RuleRanges>>();

  /** Records `finding` (in `file`, by the session's name, whose text is `text`); its unsafe fix is not applied. */
  note(finding: Finding, file: string, text: string): void {
    let byRule = this.byFile.get(file);
    if (!byRule) this.byFile.set(file, (byRule = new Map()));
    const end = finding.span.startOffset;
    const start = Math.max(text.lastIndexOf(';', end - 1), text.lastIndexOf('{', end - 1), text.lastIndexOf('}', end - 1)) + 1;
    let entry = byRule.get(finding.ruleId);
    if (!entry) byRule.set(finding.ruleId, (entry = { ranges: [], pending: [] }));
    entry.pending.push({ start, end });
  }

  /**
   * Whether `finding` starts where a fix of its rule was withheld as unsafe on an earlier pass. (This pass's own
   * unsafe findings are refused by their own flag.)
   */
  refuses(finding: Finding, file: string): boolean {
    const ranges = this.byFile.get(file)?.get(finding.ruleId)?.ranges;
    if (!ranges) return false;
    const offset = finding.span.startOffset;
    const index = lastStartingAtOrBefore(ranges, offset);
    return index >= 0 && ranges[index]!.end >= offset;
  }

  /** Joins this pass's notes to the earlier ones: call once a pass has selected, before follow(). */
  endPass(): void {
    for (const byRule of this.byFile.values()) {
      for (const entry of byRule.values()) {
        if (entry.pending.length === 0) continue;
        entry.ranges = merged(entry.ranges.concat(entry.pending));
        entry.pending = [];
      }
    }
  }

  /** Carries `file`'s ranges through `edits`, applied to `text` (the file's text before them). */
  follow(file: string, text: string, edits: readonly TextEdit[]): void {
    const byRule = this.byFile.get(file);
    if (!byRule || edits.length === 0) return;
    const ordered = orderEdits(text, edits);
    for (const entry of byRule.values()) {
      const { ranges } = entry;
      const starts = mapped(ordered, ranges.map((range) => range.start), 'before');
      const ends = mapped(ordered, ranges.map((range) => range.end), 'after');
      entry.ranges = merged(ranges.map((_, index) => ({ start: starts[index]!, end: ends[index]! })));
    }
  }
}

/**
 * Where `offsets` (ascending) land once `ordered` (applyEdits' order) is applied. `before`: a position stays before
 * text inserted at it, and one inside a replaced range goes to the replacement's start; `after`: it moves past text
 * inserted at it, and one inside a replaced range goes to the replacement's end.
 */
function mapped(ordered: readonly TextEdit[], offsets: readonly number[], side: 'before' | 'after'): number[] {
  const result: number[] = [];
  let next = 0;
  let delta = 0;
  for (const offset of offsets) {
    // Edits wholly before the offset (an insertion at it too, on the `after` side) move it by what they change.
    while (next < ordered.length) {
      const edit = ordered[next]!;
      const passed = edit.endOffset < offset || (edit.endOffset === offset && (side === 'after' || edit.startOffset < offset));
      if (!passed) break;
      delta += edit.newText.length - (edit.endOffset - edit.startOffset);
      next++;
    }
    const edit = ordered[next];
    const inside = edit !== undefined && edit.startOffset < offset && edit.endOffset > offset;
    if (!inside) result.push(offset + delta);
    else result.push(edit.startOffset + delta + (side === 'after' ? edit.newText.length : 0));
  }
  return result;
}

/** Sorted by start, overlapping or touching ranges joined. */
function merged(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const result: Range[] = [];
  for (const range of sorted) {
    const last = result[result.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else result.push({ ...range });
  }
  return result;
}

function lastStartingAtOrBefore(ranges: readonly Range[], offset: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]!.start <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
