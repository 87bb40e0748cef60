// `check --fix` and `check --fix-dry-run`: fixAll() over the documents, then the new texts written safely (or shown
// as a diff). Reports what remains, as ESLint does after fixing.
import path from 'node:path';
import { analyze } from '../engine/analyze.js';
import { fixAll, MAX_FIX_PASSES, type FixAllResult } from '../engine/fix-all.js';
import { loadSyntaxChecker } from '../engine/syntax-check.js';
import type { Finding, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createReadScope, type ReadScope } from '../model/read-scope.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckIo } from './check.js';
import { displayPath, relativeIfInside } from '../util/paths.js';
import { readDocuments } from './read-documents.js';
import { countSeverities } from './report.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { writeFixes, type FixedFile } from './write-fixes.js';

export interface FixRun {
  /** What to report: the findings of the texts now on disk (or, for a dry run, of the texts --fix would write). */
  findings: Finding[];
  /** The documents with those texts, for code frames. */
  documents: SourceDocument[];
  /** A file could not be written: exit 2. */
  failed: boolean;
  /** fixAll stopped at its pass limit with fixes still applying (said on stderr already): exit 1 at least. */
  hitPassLimit: boolean;
}

export interface FixContext {
  analyzeOptions: AnalyzeOptions;
  /** The checked paths: the only places fixes are made. */
  roots: readonly string[];
  /** Where fixes may be made instead of the roots' scope: an nginx -T dump's (cli/dump.ts) is all of its files. */
  scope?: ReadScope;
  io: CheckIo;
  /** --unsafe-fixes: apply unsafe fixes too. */
  unsafe?: boolean;
}

export async function runFix(mode: 'write' | 'dry-run', documents: SourceDocument[], context: FixContext): Promise<FixRun> {
  if (documents.length === 0) return { findings: [], documents, failed: false, hitPassLimit: false };
  const { io } = context;
  const scope = context.scope ?? createReadScope(context.roots);
  const result = await fixAll(documents, context.analyzeOptions, registeredRules, {
    canEdit: (file) => scope.allows(path.resolve(io.cwd, file)),
    unsafe: context.unsafe === true,
  });
  if (result.hitPassLimit) io.stderrLine(passLimitNote(mode));
  const outside = unfixableNotes(result.remaining, scope, io.cwd);
  for (const line of outside) io.stderrLine(line);
  if (mode === 'dry-run') {
    io.stdout(diffOf(result, io.cwd));
    io.stderrLine(dryRunSummary(result));
    return { findings: result.remaining, documents, failed: false, hitPassLimit: result.hitPassLimit };
  }
  const written = { ...(await write(result, documents, context)), hitPassLimit: result.hitPassLimit };
  // A fix refused because its file lies outside the checked paths is a file not written, like any other refusal:
  // exit 2, as docs/usage.md (exit status) promises, so CI does not take a partly fixed tree for a fixed one.
  return outside.length > 0 ? { ...written, failed: true } : written;
}

/**
 * fixAll gave up with fixes still applying: fixes undoing each other (a bug in the rules), never a configuration
 * needing more passes than the bound. Said, and the run fails (exit 1), so CI never takes the result for fixed.
 */
export function passLimitNote(mode: 'write' | 'dry-run' | 'stdin'): string {
  const flag = mode === 'dry-run' ? '--fix-dry-run' : '--fix';
  const result = mode === 'write' ? 'the files written are' : 'the result is';
  return (
    `${flag} stopped after ${MAX_FIX_PASSES} passes with fixes still applying (fixes undoing each other): ` +
    `${result} not at a fixed point; please report this with the configuration`
  );
}

async function write(result: FixAllResult, documents: SourceDocument[], context: FixContext): Promise<Omit<FixRun, 'hitPassLimit'>> {
  const { io } = context;
  const files: FixedFile[] = [...result.texts].map(([name, fixed]) => ({
    path: path.resolve(io.cwd, name),
    original: result.originals.get(name)!,
    fixed,
  }));
  const outcome = writeFixes(files, { roots: context.roots, isClean: await loadSyntaxChecker() });
  for (const refusal of outcome.refused) io.stderrLine(`${displayPath(refusal.path, io.cwd)}: ${refusal.reason}`);
  if (outcome.refused.length === 0) {
    const fixed = documents.map((doc) => ({ ...doc, text: result.texts.get(doc.path) ?? doc.text }));
    return { findings: result.remaining, documents: fixed, failed: false };
  }
  // Some fixes did not land: report what is really on disk now, not what fixAll would have made of it.
  const reread = readDocuments(
    documents.map((doc) => doc.path),
    io.cwd,
    { maxFileBytes: context.analyzeOptions.maxFileBytes },
  );
  for (const line of reread.errors) io.stderrLine(line);
  const findings = reread.documents.length === 0 ? [] : await analyze(reread.documents, context.analyzeOptions);
  return { findings, documents: reread.documents, failed: true };
}

/** Fixable findings left alone because their fix would edit a file outside the checked paths: one note per file. */
function unfixableNotes(remaining: readonly Finding[], scope: ReadScope, cwd: string): string[] {
  const outside = new Set<string>();
  for (const finding of remaining) {
    for (const edit of finding.fix?.edits ?? []) {
      const file = path.resolve(cwd, edit.file);
      if (!scope.allows(file)) outside.add(file);
    }
  }
  return [...outside]
    .sort()
    .map((file) => `${displayPath(file, cwd)}: outside the checked paths, its fixes are not applied (check it, or its directory, to fix it)`);
}

/** git's `a/` and `b/` prefixes for paths under the working directory, so `git apply` and `patch -p1` take it. */
function diffOf(result: FixAllResult, cwd: string): string {
  return [...result.texts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, fixed]) => {
      // Unescaped: a patch must name the real file.
      const shown = relativeIfInside(path.resolve(cwd, name), cwd);
      const [oldName, newName] = path.isAbsolute(shown) ? [shown, shown] : [`a/${shown}`, `b/${shown}`];
      return unifiedDiff(result.originals.get(name)!, fixed, oldName, newName);
    })
    .join('');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function dryRunSummary(result: FixAllResult): string {
  const counts = countSeverities(result.remaining);
  const total = counts.error + counts.warning + counts.info;
  return (
    `--fix-dry-run: ${plural(result.texts.size, 'file')} would change, nothing written; ` +
    `${plural(total, 'problem')} would remain ` +
    `(${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info)`
  );
}
