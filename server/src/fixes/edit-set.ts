// Combining the edits of several fix helpers into one Fix. Helpers computed independently (one per pass, one per
// concern) often agree: two locations inheriting one server-level header set both want the same insertion there.
//
//   mergeEdits(edits)   exact duplicates dropped; insertions at one offset of one file joined into one edit (in the
//                       order given, each text once); a remaining overlap throws, since a fix must never hold one
//
// A Fix whose edits overlap or touch would have no defined result (fix-all's collision rule treats two insertions
// at one offset as a collision between fixes); inside one fix we decide the order here, once.
import type { TextEdit } from '../core/types.js';

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.file === b.file && a.startOffset === b.startOffset && a.endOffset === b.endOffset && a.newText === b.newText;
}

function isInsertion(edit: TextEdit): boolean {
  return edit.startOffset === edit.endOffset;
}

function overlaps(a: TextEdit, b: TextEdit): boolean {
  if (a.file !== b.file) return false;
  // An insertion at a replacement's edge is ordered by applyEdits (insertion first), so only true overlaps count.
  return a.startOffset < b.endOffset && b.startOffset < a.endOffset;
}

export function mergeEdits(edits: readonly TextEdit[]): TextEdit[] {
  const merged: TextEdit[] = [];
  for (const edit of edits) {
    if (merged.some((taken) => sameEdit(taken, edit))) continue;
    const joined = isInsertion(edit)
      ? merged.findIndex((taken) => isInsertion(taken) && taken.file === edit.file && taken.startOffset === edit.startOffset)
      : -1;
    if (joined !== -1) {
      const taken = merged[joined]!;
      if (!taken.newText.includes(edit.newText)) merged[joined] = { ...taken, newText: taken.newText + edit.newText };
      continue;
    }
    const clash = merged.find((taken) => overlaps(taken, edit));
    if (clash) {
      throw new Error(
        `mergeEdits: edit [${edit.startOffset}, ${edit.endOffset}) overlaps [${clash.startOffset}, ${clash.endOffset}) in ${edit.file}`,
      );
    }
    merged.push(edit);
  }
  return merged;
}
