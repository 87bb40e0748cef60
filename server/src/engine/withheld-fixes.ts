// The unsafe fixes a run without --unsafe-fixes left alone, followed through fixAll's passes: a fix that was unsafe
// when first offered stays refused however a later pass's analysis labels it. The root cause of the one leak seen is
// fixed where the verdict is made (analysis/third-party.ts: an upstream whose servers are a stranger's is a
// stranger's); this is the defence in depth for the next such case. A safe fix rewrites the text around a finding
// (proxy-pass-no-upstream turned a pass to a third party into a pass to a new upstream{}), and the next pass
// re-derives the finding from that text; if the new text hides what made the fix unsafe, the finding comes back with
// a "safe" fix. Identity across passes is the rule and the finding's start, carried through every applied edit.
//
// An anchor inside a range an applied edit replaces moves to where the replacement starts: a finding of the same
// rule reported there (a rewritten statement's) is taken for the same finding and stays refused. Erring this way
// costs at most a safe fix left for the next run; the other way could apply what was unsafe.
import { orderEdits } from '../fixes/edits.js';
import type { Finding, TextEdit } from '../util/types.js';

interface Anchor {
  ruleId: string;
  offset: number;
}

const keyOf = (ruleId: string, offset: number) => `${ruleId}\u0000${offset}`;

export class WithheldFixes {
  /** By the session's name of the file: anchors in offset order, and their keys for lookup. */
  private readonly byFile = new Map<string, { anchors: Anchor[]; keys: Set<string> }>();

  /** Records `finding` (in `file`, by the session's name), whose unsafe fix this run does not apply. */
  note(finding: Finding, file: string): void {
    let entry = this.byFile.get(file);
    if (!entry) this.byFile.set(file, (entry = { anchors: [], keys: new Set() }));
    const key = keyOf(finding.ruleId, finding.span.startOffset);
    if (entry.keys.has(key)) return;
    entry.keys.add(key);
    entry.anchors.push({ ruleId: finding.ruleId, offset: finding.span.startOffset });
  }

  /** Whether `finding` stands where a fix of its rule was withheld as unsafe on an earlier pass (or this one). */
  refuses(finding: Finding, file: string): boolean {
    return this.byFile.get(file)?.keys.has(keyOf(finding.ruleId, finding.span.startOffset)) ?? false;
  }

  /** Carries `file`'s anchors through `edits`, applied to `text` (the file's text before them). */
  follow(file: string, text: string, edits: readonly TextEdit[]): void {
    const entry = this.byFile.get(file);
    if (!entry || edits.length === 0) return;
    const ordered = orderEdits(text, edits);
    const anchors = [...entry.anchors].sort((a, b) => a.offset - b.offset);
    const moved: Anchor[] = [];
    let next = 0;
    let delta = 0;
    for (const anchor of anchors) {
      // Edits ending at or before the anchor (an insertion right at it included) move it by what they change.
      while (next < ordered.length && ordered[next]!.endOffset <= anchor.offset) {
        const edit = ordered[next++]!;
        delta += edit.newText.length - (edit.endOffset - edit.startOffset);
      }
      // The first edit ending after the anchor replaces it when it starts at or before it.
      const edit = ordered[next];
      const offset = edit && edit.startOffset <= anchor.offset ? edit.startOffset : anchor.offset;
      moved.push({ ruleId: anchor.ruleId, offset: offset + delta });
    }
    this.byFile.set(file, { anchors: moved, keys: new Set(moved.map((anchor) => keyOf(anchor.ruleId, anchor.offset))) });
  }
}
