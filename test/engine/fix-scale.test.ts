// Fix building and merging stay O(n log n) in the number of edits (issue 10): one upstream without keepalive used by
// N locations gets one fix with an edit per location, and merging those edits pairwise (mergeEdits), copying the
// edit list per edit (fix-all's candidates) or splicing each into one sorted array (TakenEdits) made 8,000
// locations take 3 s and 150,000 never finish. No timing is asserted: the quadratic versions miss vitest's timeout.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { TakenEdits } from '../../server/src/engine/taken-edits.js';
import type { SourceDocument, TextEdit } from '../../server/src/util/types.js';
import { mergeEdits } from '../../server/src/fixes/edit-set.js';
import { tempTree } from '../model/support.js';

const EDITS = 150_000;
const LOCATIONS = 100_000;

const insertion = (offset: number, newText: string, file = 'f.conf'): TextEdit => ({ file, startOffset: offset, endOffset: offset, newText });

describe('mergeEdits on 150,000 edits', () => {
  it('drops each duplicate and keeps the first-seen order', () => {
    // Descending offsets, each edit given twice: the worst order for a merge that scans what it has kept.
    const edits: TextEdit[] = [];
    for (let offset = EDITS; offset > 0; offset--) edits.push(insertion(offset * 2, 'x;'), insertion(offset * 2, 'x;'));
    const merged = mergeEdits(edits);
    expect(merged).toHaveLength(EDITS);
    expect(merged[0]).toEqual(insertion(EDITS * 2, 'x;'));
    expect(merged[EDITS - 1]).toEqual(insertion(2, 'x;'));
  });

  it('joins the texts inserted at one offset, each once, in the order given', () => {
    const edits: TextEdit[] = [];
    for (let index = 0; index < EDITS; index++) edits.push(insertion(7, index % 2 === 0 ? 'a;' : 'b;'));
    expect(mergeEdits(edits)).toEqual([insertion(7, 'a;b;')]);
  });

  it('still finds the one overlapping pair among them', () => {
    const edits: TextEdit[] = [];
    for (let offset = 0; offset < EDITS; offset++) {
      edits.push({ file: 'f.conf', startOffset: offset * 4, endOffset: offset * 4 + 2, newText: 'y' });
    }
    edits.push({ file: 'f.conf', startOffset: 1, endOffset: 3, newText: 'z' });
    expect(() => mergeEdits(edits)).toThrow(/overlaps \[0, 2\)/);
    // The same ranges in another file do not overlap those.
    expect(mergeEdits([...edits.slice(0, -1), { ...edits.at(-1)!, file: 'g.conf' }])).toHaveLength(EDITS + 1);
  });
});

describe('TakenEdits with 150,000 fixes', () => {
  it('takes them in any order and still sees every collision', () => {
    const taken = new TakenEdits();
    const fix = (edit: TextEdit) => new Map([[edit.file, [edit]]]);
    // Descending: each new edit sorts before every one taken so far.
    let collisions = 0;
    for (let offset = EDITS; offset > 0; offset--) {
      const edit = insertion(offset * 3, 'k;');
      if (taken.collides(fix(edit))) collisions++;
      taken.take(fix(edit));
    }
    expect(collisions).toBe(0);
    expect(taken.collides(fix(insertion(3 * 777, 'other;')))).toBe(true);
    expect(taken.collides(fix({ file: 'f.conf', startOffset: 3 * 500 + 1, endOffset: 3 * 501, newText: '' }))).toBe(true);
    expect(taken.collides(fix(insertion(3 * 777 + 1, 'between;')))).toBe(false);
    expect(taken.collides(fix(insertion(3 * 777, 'elsewhere;', 'g.conf')))).toBe(false);
  });
});

describe('one upstream used by 100,000 locations', () => {
  const location = (index: number, body: string) => `  location /l${index} { ${body}proxy_pass http://app; }\n`;
  const config = (upstream: string, body: string) => {
    const locations: string[] = [];
    for (let index = 0; index < LOCATIONS; index++) locations.push(location(index, body));
    return `http {\n${upstream}\nserver {\n  listen 80;\n${locations.join('')}}\n}\n`;
  };
  const before = config('upstream app { server 127.0.0.1:8080; }', '');
  const after = config(
    'upstream app { server 127.0.0.1:8080; keepalive 16; }',
    'proxy_http_version 1.1; proxy_set_header Connection ""; ',
  );

  it('gets one upstream-keepalive fix with one edit for the upstream and one per location', async () => {
    const document: SourceDocument = { path: path.join(tempTree({}), 'nginx.conf'), text: before };
    const findings = await analyze([document]);
    expect(findings.map((finding) => finding.ruleId)).toEqual(['upstream-keepalive']);
    const edits = findings[0]!.fix!.edits;
    expect(edits).toHaveLength(LOCATIONS + 1);
    expect(new Set(edits.map((edit) => edit.startOffset)).size).toBe(LOCATIONS + 1);
  });

  it('is fixed by fixAll in one pass, every location getting HTTP/1.1 and a cleared Connection', async () => {
    const document: SourceDocument = { path: path.join(tempTree({}), 'nginx.conf'), text: before };
    const result = await fixAll([document]);
    expect(result.passes).toBe(1);
    expect(result.remaining).toEqual([]);
    expect(result.texts.get(document.path) === after).toBe(true);
  });
});
