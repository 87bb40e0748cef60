// "Fix all" for one document and for the workspace: fixAll() run in the include context the diagnostics come from,
// its new texts turned into one minimal replacement per file. Safe fixes only (`unsafe: false`, as `--fix` without
// --unsafe-fixes): an unsafe one is applied by choosing its quick fix (code-actions.ts), never in bulk.
import path from 'node:path';
import { fixAll } from '../engine/fix-all.js';
import type { SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { rules } from '../rules/registry.js';
import type { OpenDocument } from './open-document.js';
import { minimalReplacement } from './text-edits.js';
import type { FileEdits } from './workspace-edit.js';

/** What fixing needs from the analysis side. */
export interface FixContext {
  /** The unit the document is analyzed in (analysis-units.ts): a root file's path, or a folder's key. */
  rootFor(document: OpenDocument): string;
  analyzeOptionsFor(root: string): AnalyzeOptions;
  /** The unit's documents, as its analysis gets them; by default the root file alone. */
  documentsOf?(root: string): SourceDocument[] | undefined;
  /** The document's name in the unit (a link's: the target's the folder keeps); by default its own path. */
  nameOf?(document: OpenDocument): string;
}

function editsOf(texts: ReadonlyMap<string, string>, originals: ReadonlyMap<string, string>): FileEdits[] {
  return [...texts].flatMap(([file, fixed]) => {
    const original = originals.get(file);
    const replacement = original === undefined ? undefined : minimalReplacement(original, fixed);
    return replacement ? [{ path: path.resolve(file), text: original!, edits: [replacement] }] : [];
  });
}

/**
 * The edit fixing everything fixable in `document` alone (fixes that would also edit another file are left to
 * their quick fixes: saving one file should not rewrite others). Undefined when nothing applies.
 */
export async function fixDocument(document: OpenDocument, context: FixContext): Promise<FileEdits | undefined> {
  const root = context.rootFor(document);
  const options = context.analyzeOptionsFor(root);
  const rootText = context.documentsOf ? undefined : options.host?.readFile(root);
  const documents = context.documentsOf?.(root) ?? (rootText === undefined ? undefined : [{ path: root, text: rootText }]);
  if (documents === undefined) return undefined;
  // The fixes of the diagnostics shown: the same documents, the document under the name its findings carry.
  const name = context.nameOf?.(document) ?? document.path;
  const result = await fixAll(documents, options, rules, {
    canEdit: (file) => path.resolve(file) === name,
    unsafe: false,
  });
  const edits = editsOf(result.texts, result.originals).find((file) => file.path === name);
  return edits && { ...edits, path: document.path };
}

/** Fixes over `documents` together (the workspace's nginx files); only files `canEdit` allows are changed. */
export async function fixFiles(
  documents: readonly SourceDocument[],
  options: AnalyzeOptions,
  canEdit: (file: string) => boolean,
): Promise<FileEdits[]> {
  return (await fixFilesCounted(documents, options, canEdit)).files;
}

/** fixFiles(), with how many fixes were applied (for "Fixed N problems in M files"). */
export async function fixFilesCounted(
  documents: readonly SourceDocument[],
  options: AnalyzeOptions,
  canEdit: (file: string) => boolean,
): Promise<{ files: FileEdits[]; applied: number }> {
  if (documents.length === 0) return { files: [], applied: 0 };
  const result = await fixAll(documents, options, rules, { canEdit, unsafe: false });
  return { files: editsOf(result.texts, result.originals), applied: result.applied };
}
