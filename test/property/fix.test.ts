// Fixes on mutated fixable files: fixAll never leaves a syntax error behind and never edits a file that had one,
// fixing is idempotent, and a single fix changes only the bytes inside its own edit ranges.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll, MAX_FIX_PASSES } from '../../server/src/engine/fix-all.js';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/engine/syntax-check.js';
import type { SourceDocument, TextEdit } from '../../server/src/util/types.js';
import { checkProperty, fixableSeedFiles, gentleMutation, memoryHost, mutate, mutation, VIRTUAL_DIR, type Mutation } from './support.js';

const seeds = fixableSeedFiles();

let isClean: SyntaxChecker;
beforeAll(async () => {
  isClean = await loadSyntaxChecker();
});

/** Gentle edits most of the time (the file stays clean and has fixes), hostile ones sometimes. */
const fileCase = fc.record({
  seed: fc.nat({ max: seeds.length - 1 }),
  change: fc.oneof({ weight: 4, arbitrary: gentleMutation }, { weight: 1, arbitrary: mutation }),
});

function documentOf({ seed, change }: { seed: number; change: Mutation }): SourceDocument {
  const name = path.basename(seeds[seed]!.name);
  return { path: path.join(VIRTUAL_DIR, name), text: mutate(seeds[seed]!.text, change) };
}

describe('fixAll on mutated files', () => {
  it('leaves only clean files, never touches an unclean one, and changes nothing when run again', async () => {
    await checkProperty(
      'fixAll keeps files clean and is idempotent',
      fc.asyncProperty(fileCase, async (input) => {
        const doc = documentOf(input);
        const host = memoryHost([doc]);
        const result = await fixAll([doc], { host });
        const fixed = result.texts.get(doc.path);
        if (!isClean(doc.path, doc.text)) {
          expect(fixed).toBeUndefined();
          return;
        }
        if (fixed === undefined) return;
        expect(isClean(doc.path, fixed)).toBe(true);
        if (result.passes === MAX_FIX_PASSES) return;
        const again = { ...doc, text: fixed };
        const second = await fixAll([again], { host: memoryHost([again]) });
        expect(second.texts.size).toBe(0);
        expect(second.remaining).toEqual(result.remaining);
      }),
      12,
    );
  });
});

/** The parts of `text` no edit touches, in order. */
function untouched(text: string, edits: readonly TextEdit[]): string[] {
  const sorted = [...edits].sort((a, b) => a.startOffset - b.startOffset);
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of sorted) {
    parts.push(text.slice(cursor, edit.startOffset));
    cursor = Math.max(cursor, edit.endOffset);
  }
  parts.push(text.slice(cursor));
  return parts;
}

/** True when `result` holds `parts` in order, the first at its start and the last at its end. */
function keepsInOrder(result: string, parts: readonly string[]): boolean {
  if (!result.startsWith(parts[0]!) || !result.endsWith(parts.at(-1)!)) return false;
  let from = 0;
  for (const part of parts) {
    const at = result.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}

describe('one fix applied alone', () => {
  it('changes no byte outside its edit ranges (a byte order mark included) and keeps a clean file clean', async () => {
    await checkProperty(
      'a fix changes only its edit ranges',
      fc.asyncProperty(fileCase, fc.boolean(), async (input, withBom) => {
        const base = documentOf(input);
        const doc = withBom && !base.text.startsWith('\uFEFF') ? { ...base, text: `\uFEFF${base.text}` } : base;
        const clean = isClean(doc.path, doc.text);
        const findings = await analyze([doc], { host: memoryHost([doc]) });
        for (const finding of findings) {
          const edits = (finding.fix?.edits ?? []).filter((edit) => edit.file === doc.path);
          if (edits.length === 0) continue;
          const result = applyEdits(doc.text, edits);
          expect(keepsInOrder(result, untouched(doc.text, edits)), `${finding.ruleId} at ${finding.span.startOffset}`).toBe(true);
          if (doc.text.startsWith('\uFEFF')) expect(result.startsWith('\uFEFF')).toBe(true);
          if (clean) expect(isClean(doc.path, result), `${finding.ruleId}'s fix alone breaks the file`).toBe(true);
        }
      }),
      15,
    );
  });
});
