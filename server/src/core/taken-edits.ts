// The edits fixAll has taken in one pass, per file, for the "does this fix collide with one already taken" question.
// Edits of different taken fixes never collide (touching counts), so per file they are all but disjoint: kept sorted,
// one binary search answers the question. A linear scan over every taken fix made a pass quadratic, minutes long for a file
// with tens of thousands of fixable findings (a generated config, all on one line).
import type { TextEdit } from './types.js';

export class TakenEdits {
  /** By file: taken edits sorted by start offset, then end offset; their end offsets never decrease either. */
  private readonly byFile = new Map<string, TextEdit[]>();

  /** Whether any of `edits` (by file) overlaps or touches a taken edit of the same file. */
  collides(edits: ReadonlyMap<string, readonly TextEdit[]>): boolean {
    for (const [file, list] of edits) {
      const taken = this.byFile.get(file);
      if (taken && list.some((edit) => collidesIn(taken, edit))) return true;
    }
    return false;
  }

  /** Records non-colliding edits (the caller has checked `collides` first). */
  take(edits: ReadonlyMap<string, readonly TextEdit[]>): void {
    for (const [file, list] of edits) {
      let taken = this.byFile.get(file);
      if (!taken) this.byFile.set(file, (taken = []));
      for (const edit of list) taken.splice(insertionIndex(taken, edit), 0, edit);
    }
  }
}

/** Touching counts: two insertions at one offset (or an insertion at a replacement's edge) have no defined order. */
function collidesIn(taken: readonly TextEdit[], edit: TextEdit): boolean {
  const index = lastStartingAtOrBefore(taken, edit.endOffset);
  return index >= 0 && taken[index]!.endOffset >= edit.startOffset;
}

/**
 * Where `edit` goes to keep the list ordered by start, then end. One fix's own edits may touch each other (an
 * insertion at the start of its replacement), so ties exist; this order keeps the end offsets non-decreasing.
 */
function insertionIndex(taken: readonly TextEdit[], edit: TextEdit): number {
  let low = 0;
  let high = taken.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const other = taken[middle]!;
    const before = other.startOffset < edit.startOffset || (other.startOffset === edit.startOffset && other.endOffset <= edit.endOffset);
    if (before) low = middle + 1;
    else high = middle;
  }
  return low;
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
