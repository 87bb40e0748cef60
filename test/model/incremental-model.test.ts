// The incremental model's list of directives whose arguments no rule reads: the language server moves the previous
// findings instead of running the rules when only those arguments changed (engine/finding-reuse.ts), so the list
// must stay true as rules change. A rule that starts reading one of them must take it off the list.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { directiveEntries } from '../../server/src/model/directive-table.js';
import { composeChange, INERT_ARGUMENT_DIRECTIVES } from '../../server/src/model/incremental-model.js';

const SOURCE = path.resolve(import.meta.dirname, '../../server/src');

/**
 * Sources that decide findings. directive-duplicates.ts names `root` but decides by names alone (its arguments are
 * samples for the nginx measurement); readable-shape.ts lists names generously (`root` is a property name elsewhere),
 * and the reuse of inert edits is decided before it is asked. features/ read the current model, never earlier
 * findings; engine/ sniffs files by names.
 */
const NOT_DECIDING = new Set(['directive-duplicates.ts', 'readable-shape.ts']);

function sources(dir: string): string[] {
  return readdirSync(path.join(SOURCE, dir))
    .filter((name) => name.endsWith('.ts') && !NOT_DECIDING.has(name))
    .map((name) => readFileSync(path.join(SOURCE, dir, name), 'utf8'));
}

describe('INERT_ARGUMENT_DIRECTIVES', () => {
  const ruleCode = ['analysis', 'rules', 'fixes'].flatMap(sources).join('\n');
  for (const name of INERT_ARGUMENT_DIRECTIVES) {
    it(`${name}: no flag or enum words in the table, and named nowhere in the rules, analysis or fixes`, () => {
      const entries = directiveEntries(name);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(entry.values).toBeUndefined();
      expect(ruleCode).not.toMatch(new RegExp(`['"]${name}['"]`));
    });
  }
});

describe('composeChange', () => {
  // Offsets in the first text; applying the edits one by one to a string checks the composition.
  const apply = (text: string, start: number, end: number, inserted: string) => text.slice(0, start) + inserted + text.slice(end);
  const cases: Array<Array<[number, number, string]>> = [
    [[5, 5, 'xy'], [2, 3, '']],
    [[5, 8, ''], [10, 12, 'abc']],
    [[5, 6, 'abcd'], [6, 7, 'Z'], [0, 1, '']],
    [[10, 10, 'q'], [3, 12, '']],
  ];
  for (const edits of cases) {
    it(`covers ${JSON.stringify(edits)}`, () => {
      const original = 'abcdefghijklmnopqrstuvwxyz';
      let text = original;
      let stretch;
      for (const [start, end, inserted] of edits) {
        text = apply(text, start, end, inserted);
        stretch = composeChange(stretch, start, end, inserted.length, false);
      }
      // Outside the stretch, both texts agree: before it as is, after it moved by delta.
      expect(text.slice(0, stretch!.start)).toBe(original.slice(0, stretch!.start));
      expect(text.slice(stretch!.oldEnd + stretch!.delta)).toBe(original.slice(stretch!.oldEnd));
      expect(text.length).toBe(original.length + stretch!.delta);
    });
  }
});
