// The committed parser and wasm must be what grammars/build.sh makes of the committed grammar. CI also rebuilds them
// (`bash grammars/build.sh --check`); this test catches an edit to grammar.js or scanner.c without a rebuild even
// where the tree-sitter CLI is not installed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const grammarDir = path.resolve(__dirname, '../../grammars/nginx');
const provenance = JSON.parse(readFileSync(path.join(grammarDir, 'PROVENANCE.json'), 'utf8')) as {
  generator: string;
  sha256: Record<string, string>;
};

function sha256(relativePath: string): string {
  return createHash('sha256').update(readFileSync(path.join(grammarDir, relativePath))).digest('hex');
}

describe('grammar provenance', () => {
  it('names the pinned generator', () => {
    expect(provenance.generator).toMatch(/^tree-sitter-cli 0\.27\.1 /);
  });

  for (const file of ['grammar.js', 'src/scanner.c', 'src/parser.c', 'tree-sitter-nginx.wasm']) {
    it(`records the sha256 of ${file}`, () => {
      expect(sha256(file), `${file} changed without 'bash grammars/build.sh'`).toBe(provenance.sha256[file]);
    });
  }
});
