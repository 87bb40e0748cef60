// Shared by the fix-helper tests: apply a helper's edits to real files and rebuild the workspace from the result.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { passes, type Pass } from '../../server/src/analysis/passes.js';
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { TextEdit } from '../../server/src/util/types.js';
import { buildWorkspace, type Workspace } from '../../server/src/model/workspace.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { checkTree } from '../analysis/support.js';
import { readDocuments } from '../model/support.js';

export interface Tree {
  root: string;
  documents: string[];
  workspace: Workspace;
}

export async function loadTree(files: Record<string, string>, documents = [Object.keys(files)[0]!]): Promise<Tree> {
  const { root, workspace } = await checkTree(files, documents);
  return { root, documents, workspace };
}

/** Writes the edits into the tree's files (grouped by file) and rebuilds the workspace from the new texts. */
export async function applyToTree(tree: Tree, edits: readonly TextEdit[]): Promise<Tree> {
  const byFile = new Map<string, TextEdit[]>();
  for (const edit of edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  for (const [file, fileEdits] of byFile) writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), fileEdits));
  const docs = readDocuments(tree.root, tree.documents);
  const workspace = buildWorkspace(docs, createFsHost(), await loadNginxParser(), { readRoots: [tree.root] });
  return { ...tree, workspace };
}

export function readTree(tree: Tree, relative: string): string {
  return readFileSync(path.join(tree.root, relative), 'utf8');
}

export function proxyPasses(workspace: Workspace): Pass[] {
  return passes(workspace).filter((pass) => pass.name === 'proxy_pass');
}

/**
 * Applies `fix` to the first pass it has edits for, one fix at a time the way fix-all does, until none has any.
 * Returns the final tree; throws when it does not settle (a fix that never resolves what it fixes).
 */
export async function fixToFixpoint(
  tree: Tree,
  fix: (workspace: Workspace, pass: Pass) => TextEdit[],
  select: (pass: Pass) => boolean = () => true,
): Promise<Tree> {
  let current = tree;
  for (let round = 0; round < 20; round++) {
    const edits = passes(current.workspace)
      .filter(select)
      .map((pass) => fix(current.workspace, pass))
      .find((found) => found.length > 0);
    if (!edits) return current;
    current = await applyToTree(current, edits);
  }
  throw new Error('fix did not reach a fixpoint in 20 rounds');
}
