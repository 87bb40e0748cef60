// `check - --fix`: the fixed text goes to stdout (the report to stderr, see check.ts), so an editor or a pipe can
// take it in place of what it sent. Nothing is written: a file named by --stdin-filename may not even exist, and
// when it does, the text on stdin (an unsaved buffer) is what was fixed, not the disk's.
import path from 'node:path';
import { fixAll } from '../engine/fix-all.js';
import type { Finding, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckIo } from './check.js';
import { passLimitNote } from './fix-run.js';
import { displayPath } from '../util/paths.js';

export interface StdinFix {
  /** The findings of the fixed text (and of the files it includes). */
  findings: Finding[];
  /** The stdin document with its fixed text, for code frames. */
  documents: SourceDocument[];
  /** fixAll stopped at its pass limit (said on stderr already): exit 1 at least. */
  hitPassLimit: boolean;
}

/**
 * Fixes the stdin document alone: a fix that would also edit an included file is not applied (its file is on disk,
 * and only stdin's text comes back), and a note names that file. The text is printed even when nothing changed, so
 * `check - --fix < a > b` always leaves a whole file in b.
 */
export async function fixStdin(document: SourceDocument, analyzeOptions: AnalyzeOptions, io: CheckIo, unsafe = false): Promise<StdinFix> {
  const target = path.resolve(io.cwd, document.path);
  const result = await fixAll([document], analyzeOptions, registeredRules, {
    canEdit: (file) => path.resolve(io.cwd, file) === target,
    unsafe,
  });
  if (result.hitPassLimit) io.stderrLine(passLimitNote('stdin'));
  const fixed = result.texts.get(document.path) ?? document.text;
  io.stdout(fixed);
  for (const file of otherFilesToFix(result.remaining, target, io.cwd)) {
    io.stderrLine(`${displayPath(file, io.cwd)}: not the file on stdin, its fixes are not applied (check it to fix it)`);
  }
  return { findings: result.remaining, documents: [{ ...document, text: fixed }], hitPassLimit: result.hitPassLimit };
}

/** Files other than stdin's that remaining fixable findings would edit, sorted. */
function otherFilesToFix(remaining: readonly Finding[], target: string, cwd: string): string[] {
  const files = new Set<string>();
  for (const finding of remaining) {
    for (const edit of finding.fix?.edits ?? []) {
      const file = path.resolve(cwd, edit.file);
      if (file !== target) files.add(file);
    }
  }
  return [...files].sort();
}
