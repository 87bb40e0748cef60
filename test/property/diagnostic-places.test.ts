// An open document's diagnostics take the places of findings that did not move relative to their lines from the
// previous set (lsp/diagnostic-reuse.ts) instead of looking them up in the text. Whatever the edits between two sets
// (several per set, line breaks of every kind, whole-text replacements) and wherever the findings land (moved with
// the text, moved elsewhere, left where they were), every diagnostic must be the one toDiagnostic() makes of its
// finding for the current text.
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { diagnosticsOf } from '../../server/src/lsp/diagnostic-reuse.js';
import { toDiagnostic } from '../../server/src/lsp/diagnostics.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import type { Finding } from '../../server/src/util/types.js';
import { checkProperty } from './support.js';

const FILE = '/diagnostic-places/nginx.conf';
const FINDINGS = 12;
const piece = fc.constantFrom('a', 'bb ', '\n', '\r\n', '\r', 'é', '😀', 'x\ny', '\n\n', ';', '');
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
/** A document long enough that most findings lie away from an edit. */
const documentText = fc.array(piece, { minLength: 20, maxLength: 120 }).map((parts) => parts.join(''));
/** Uniform in [0, 1] (fast-check's doubles crowd near 0, which put nearly every edit and finding at the start). */
const fraction = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);

/** How a finding's place changes in a step: with the text, to a place chosen anew, or not at all (its offsets). */
const placement = fc.constantFrom('moved', 'moved', 'moved', 'anew', 'same');
const change = fc.record({ at: fraction, deleted: fc.nat({ max: 5 }), inserted: text });
const step = fc.record({
  whole: fc.nat({ max: 7 }).map((roll) => roll === 0),
  batches: fc.array(fc.array(change, { minLength: 0, maxLength: 3 }), { minLength: 0, maxLength: 2 }),
  replacement: documentText,
  places: fc.array(fc.tuple(placement, fraction, fraction), { minLength: FINDINGS, maxLength: FINDINGS }),
  /** Which findings this set has: one left out and found again later has no diagnostic in the set before. */
  present: fc.array(fc.nat({ max: 3 }).map((roll) => roll > 0), { minLength: FINDINGS, maxLength: FINDINGS }),
});

/** `offset` after replacing start..oldEnd with `length` characters; one inside the replaced text goes to its start. */
function moved(offset: number, start: number, oldEnd: number, length: number): number {
  if (offset <= start) return offset;
  if (offset >= oldEnd) return offset + length - (oldEnd - start);
  return start;
}

function finding(index: number): Finding {
  return {
    ruleId: index % 2 === 0 ? 'proxy-http-version' : 'unknown-directive',
    severity: 'warning',
    message: `finding ${index}`,
    ...(index % 3 === 0 ? { detail: 'the why' } : {}),
    file: FILE,
    span: { start: { line: 0, column: 0 }, end: { line: 0, column: 0 }, startOffset: 0, endOffset: 0 },
  } as Finding;
}

describe('diagnostics reusing the places of the previous set', () => {
  it('are what toDiagnostic() makes of each finding for the current text, after any edits', async () => {
    await checkProperty(
      'diagnostic places after edits',
      fc.asyncProperty(documentText, fc.array(step, { minLength: 1, maxLength: 6 }), async (first, steps) => {
        const document = new OpenDocument(`file://${FILE}`, FILE, 1, first, () => 1_000_000);
        let mirror = TextDocument.create('file:///mirror', 'nginx', 1, first);
        const findings = Array.from({ length: FINDINGS }, (_, index) => finding(index));
        let present = findings.map(() => true);
        const check = () => {
          const content = document.text;
          for (const one of findings) {
            one.span.startOffset = Math.min(one.span.startOffset, content.length);
            one.span.endOffset = Math.min(Math.max(one.span.endOffset, one.span.startOffset), content.length);
          }
          const shown = findings.filter((_, index) => present[index]);
          const diagnostics = diagnosticsOf(document, shown);
          expect(diagnostics).toEqual(shown.map((one) => toDiagnostic(one, document.textDocument)));
        };
        check();
        for (const { whole, batches, replacement, places, present: has } of steps) {
          present = has;
          const before = findings.map((one) => ({ ...one.span }));
          if (whole) {
            document.applyChanges([{ text: replacement }], document.version + 1);
            mirror = TextDocument.create('file:///mirror', 'nginx', 1, replacement);
          } else {
            for (const batch of batches) {
              // One notification's changes apply in order, each to the text the ones before it left. Positions are
              // the document's own: after a '\r' typed before a '\n', its text library's incremental line breaks
              // differ from those of a fresh count of the same text.
              const changes = [];
              for (const { at, deleted, inserted } of batch) {
                const content = mirror.getText();
                // An offset inside a '\r\n' has no position, and clients keep edits off the middle of a surrogate pair.
                const place = (offset: number) => {
                  const placed = mirror.offsetAt(mirror.positionAt(offset));
                  return /[\uDC00-\uDFFF]/.test(content.charAt(placed)) ? placed - 1 : placed;
                };
                const start = place(Math.floor(at * content.length));
                const oldEnd = Math.max(start, place(start + deleted));
                const range = { start: mirror.positionAt(start), end: mirror.positionAt(oldEnd) };
                changes.push({ range, text: inserted });
                TextDocument.update(mirror, [{ range, text: inserted }], mirror.version + 1);
                for (const span of before) {
                  span.startOffset = moved(span.startOffset, start, oldEnd, inserted.length);
                  span.endOffset = moved(span.endOffset, start, oldEnd, inserted.length);
                }
              }
              document.applyChanges(changes, document.version + 1);
              expect(document.text).toBe(mirror.getText());
            }
          }
          const length = document.text.length;
          findings.forEach((one, index) => {
            const [how, a, b] = places[index]!;
            if (how === 'moved' && !whole) Object.assign(one.span, before[index]);
            else if (how === 'anew') {
              const [low, high] = [Math.floor(a * length), Math.floor(b * length)].sort((x, y) => x - y);
              Object.assign(one.span, { startOffset: low, endOffset: high });
            }
          });
          check();
        }
      }),
      500,
    );
  });
});
