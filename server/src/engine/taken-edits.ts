// The edits fixAll has taken in one pass, per file, for the "does this fix collide with one already taken" question.
// Edits of different taken fixes never collide (touching counts), so per file they are all but disjoint: kept sorted,
// one binary search answers the question. A linear scan over every taken fix made a pass quadratic, minutes long for a file
// with tens of thousands of fixable findings (a generated config, all on one line).
//
// Kept as a few sorted runs rather than one sorted array: inserting into one array (splice) moves every later
// edit, which is quadratic again when fixes arrive out of order (an upstream's fix with 150,000 edits, or findings
// whose edits land before earlier ones). The runs work like a binary counter: each edit is added as a run of one, and
// two runs of equal length are merged, so each edit is copied O(log n) times and there are O(log n) runs to search.
import type { TextEdit } from '../util/types.js';

export class TakenEdits {
  /**
   * By file: runs of taken edits, each sorted by start offset, then end offset (so its end offsets never decrease
   * either); their lengths are distinct powers of two, largest first.
   */
  private readonly byFile = new Map<string, TextEdit[][]>();

  /** Whether any of `edits` (by file) overlaps or touches a taken edit of the same file. */
  collides(edits: ReadonlyMap<string, readonly TextEdit[]>): boolean {
    for (const [file, list] of edits) {
      const runs = this.byFile.get(file);
      if (runs && list.some((edit) => runs.some((run) => collidesIn(run, edit)))) return true;
    }
    return false;
  }

  /** Records non-colliding edits (the caller has checked `collides` first). */
  take(edits: ReadonlyMap<string, readonly TextEdit[]>): void {
    for (const [file, list] of edits) {
      let runs = this.byFile.get(file);
      if (!runs) this.byFile.set(file, (runs = []));
      for (const edit of list) {
        let run = [edit];
        while (runs.length > 0 && runs[runs.length - 1]!.length === run.length) run = merge(runs.pop()!, run);
        runs.push(run);
      }
    }
  }
}

/** Touching counts: two insertions at one offset (or an insertion at a replacement's edge) have no defined order. */
function collidesIn(taken: readonly TextEdit[], edit: TextEdit): boolean {
  const index = lastStartingAtOrBefore(taken, edit.endOffset);
  return index >= 0 && taken[index]!.endOffset >= edit.startOffset;
}

/**
 * Start, then end. One fix's own edits may touch each other (an insertion at the start of its replacement), so ties
 * exist; this order keeps the end offsets non-decreasing.
 */
function before(a: TextEdit, b: TextEdit): boolean {
  return a.startOffset < b.startOffset || (a.startOffset === b.startOffset && a.endOffset <= b.endOffset);
}

function merge(a: readonly TextEdit[], b: readonly TextEdit[]): TextEdit[] {
  const merged: TextEdit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(before(a[i]!, b[j]!) ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}

/** Index of the last taken edit with startOffset <= offset, or -1. */
function lastStartingAtOrBefore(taken: readonly TextEdit[], offset: number): number {
  let low = 0;
  let high = taken.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (taken[middle]!.startOffset <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
