// Shared by the feature tests: real files in a temp directory, analyzed by the real core (analyzeWorkspace), and the
// document's model picked out of the workspace, as the language server's snapshot would hold it.
import path from 'node:path';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';
import type { FeatureContext } from '../../server/src/features/context.js';
import { readDocuments, tempTree } from '../model/support.js';

export interface Analyzed {
  root: string;
  ctx: FeatureContext;
  text: string;
  /** The offset of the `nth` occurrence of `needle` in the document, plus `delta`. */
  at(needle: string, delta?: number, nth?: number): number;
  /** The context of another analyzed file (same workspace). */
  other(relative: string): FeatureContext;
}

export function offsetOf(text: string, needle: string, delta = 0, nth = 0): number {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index === -1) throw new Error(`"${needle}" #${nth} not found`);
  }
  return index + delta;
}

/**
 * Writes `files` (relative path -> text) and analyzes `documents` (default: the first file) with the temp directory
 * as the read root; the context is that of `documents[0]`.
 */
export async function analyze(
  files: Record<string, string>,
  documents: string[] = [Object.keys(files)[0]!],
  options: AnalyzeOptions = {},
): Promise<Analyzed> {
  const root = tempTree(files);
  const docs = readDocuments(root, documents);
  const allOptions = { readRoots: [root], ...options };
  const { workspace } = await analyzeWorkspace(docs, allOptions);
  const contextOf = (relative: string): FeatureContext => {
    const file = workspace.files.find((candidate) => candidate.path === path.join(root, relative));
    if (!file) throw new Error(`${relative} is not in the workspace`);
    return { workspace, file, options: allOptions };
  };
  const ctx = contextOf(documents[0]!);
  const text = ctx.file.text;
  return { root, ctx, text, at: (needle, delta, nth) => offsetOf(text, needle, delta, nth), other: contextOf };
}
