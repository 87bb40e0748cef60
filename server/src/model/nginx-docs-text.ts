// The reference's packed text (nginx-docs.json), embedded in the bundle: what the tests, the browser's language
// server and the single executable read. The node language server's bundle swaps this module for
// nginx-docs-beside.ts (esbuild.mjs), which reads the same file from beside the bundle on first use instead.
import packed from './nginx-docs.json' with { type: 'json' };

export function packedDocsText(): string {
  return packed.packed;
}
