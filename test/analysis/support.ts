// Shared by the analysis tests: real files in a temp directory, the real parser, a real workspace.
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { Directive } from '../../server/src/model/types.js';
import { buildWorkspace, type Workspace, type WorkspaceOptions } from '../../server/src/model/workspace.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { allDirectives, readDocuments, tempTree } from '../model/support.js';

export { tempTree };

export interface Checked {
  root: string;
  workspace: Workspace;
}

/**
 * Writes `files` to a temp directory and builds the workspace of `documents` (relative paths; by default the first
 * file), with the temp directory as the read root.
 */
export async function checkTree(
  files: Record<string, string>,
  documents: string[] = [Object.keys(files)[0]!],
  options: WorkspaceOptions = {},
): Promise<Checked> {
  const root = tempTree(files);
  const docs = readDocuments(root, documents);
  const workspace = buildWorkspace(docs, createFsHost(), await loadNginxParser(), { readRoots: [root], ...options });
  return { root, workspace };
}

/** The nth directive called `name` in the file whose path ends with `fileSuffix`, depth-first. */
export function directiveIn(workspace: Workspace, fileSuffix: string, name: string, nth = 0): Directive {
  const file = workspace.files.find((f) => f.path.endsWith(fileSuffix));
  if (!file) throw new Error(`no file ${fileSuffix}`);
  const found = allDirectives(file.directives).filter((d) => d.name === name)[nth];
  if (!found) throw new Error(`no directive ${name} #${nth} in ${fileSuffix}`);
  return found;
}

/** The source text of a directive, to name it in assertions. */
export function source(directive: Directive): string {
  return directive.file.text.slice(directive.span.startOffset, directive.span.endOffset);
}
