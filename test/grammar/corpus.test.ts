// Runs the grammar's hand-written tree-sitter corpus (grammars/nginx/test/corpus/*.txt) through the committed wasm,
// so `npm test` checks the very parser the tool ships, not only the one `tree-sitter test` builds natively.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNginxParser } from '../../server/src/parser/loader.js';

const corpusDir = path.resolve(__dirname, '../../grammars/nginx/test/corpus');

interface CorpusCase {
  name: string;
  input: string;
  expected: string;
}

const HEADER = /^={3,}\r?\n(.+?)\r?\n={3,}\r?\n/gm;

function parseCorpusFile(text: string): CorpusCase[] {
  const headers = [...text.matchAll(HEADER)];
  return headers.map((header, i) => {
    const bodyStart = header.index! + header[0].length;
    const bodyEnd = headers[i + 1]?.index ?? text.length;
    const [input = '', expected = ''] = text.slice(bodyStart, bodyEnd).split(/^-{3,}\r?\n/m);
    return { name: header[1]!, input: input.replace(/^\n/, '').replace(/\n\n$/, '\n'), expected };
  });
}

/** tree-sitter's corpus format ignores layout: compare S-expressions with white space folded. */
function normalizeTree(sexp: string): string {
  return sexp.replace(/\s+/g, ' ').replace(/ \)/g, ')').replace(/\( /g, '(').trim();
}

const files = readdirSync(corpusDir).filter((name) => name.endsWith('.txt'));

describe('grammar corpus', () => {
  it('has cases to run', () => {
    const count = files.reduce((sum, file) => sum + parseCorpusFile(readFileSync(path.join(corpusDir, file), 'utf8')).length, 0);
    expect(count).toBeGreaterThanOrEqual(15);
  });

  for (const file of files) {
    for (const testCase of parseCorpusFile(readFileSync(path.join(corpusDir, file), 'utf8'))) {
      it(`${file}: ${testCase.name}`, async () => {
        const parser = await loadNginxParser();
        const tree = parser.parse(testCase.input);
        try {
          expect(normalizeTree(tree.rootNode.toString())).toBe(normalizeTree(testCase.expected));
        } finally {
          tree.delete();
        }
      });
    }
  }
});
