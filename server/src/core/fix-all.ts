// Applies every fix analyze() offers, the way ESLint's --fix does: analyze, apply the fixes that do not collide,
// analyze the new texts, repeat until nothing applies. Headless: the CLI writes the result, the language server will
// offer it as one "fix all" edit.
//
// Guarantees:
// - a fix is all-or-nothing (all its edits, in every file they touch, or none);
// - fixes are taken first come, first served in finding order; one that overlaps or touches an edit already taken
//   this pass waits for the next pass, where it is recomputed from the new text (or no longer reported) — two fixes
//   inserting the same `keepalive` at the same offset must never both land;
// - no result text has syntax problems: a fix is only applied to a file that parses cleanly, and is dropped when its
//   result would not (ESLint likewise leaves files it cannot parse alone);
// - applying the result again changes nothing (fixAll is idempotent), as long as the rules' fixes resolve what they
//   report.
import path from 'node:path';
import { applyEdits, orderEdits } from '../analysis/edits.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { Rule } from '../rules/types.js';
import { analyze } from './analyze.js';
import { createFsHost } from './fs-host.js';
import { loadSyntaxChecker, type SyntaxChecker } from './syntax-check.js';
import { TakenEdits } from './taken-edits.js';
import type { AnalyzeOptions, FileHost, Finding, SourceDocument, TextEdit } from './types.js';

/** ESLint's limit too: fixes that keep producing new fixes (a rule fighting another) must still end. */
export const MAX_FIX_PASSES = 10;

export interface FixAllResult {
  /**
   * The fixed text of every file whose text changed: documents under their `path` as given, included files under
   * their absolute path (the `file` their findings carry).
   */
  texts: Map<string, string>;
  /** The text each file in `texts` had before the first fix: what a writer checks the disk against. */
  originals: Map<string, string>;
  /** The findings of the final texts, fixable ones included when their fix could not be applied. */
  remaining: Finding[];
  /** How many passes changed something (0 when no fix applied). */
  passes: number;
}

/** The texts fixes are applied to: documents, then included files as the host reads them, overlaid by the fixes. */
class FixSession {
  private readonly documents = new Map<string, SourceDocument>();
  private readonly current = new Map<string, string>();
  private readonly names = new Map<string, string>();
  readonly originals = new Map<string, string>();
  readonly host: FileHost;

  constructor(
    private readonly docs: readonly SourceDocument[],
    private readonly baseHost: FileHost,
  ) {
    for (const doc of docs) {
      const key = path.resolve(doc.path);
      if (!this.documents.has(key)) this.documents.set(key, doc);
    }
    this.host = {
      readFile: (file) => this.current.get(path.resolve(file)) ?? baseHost.readFile(file),
      glob: (pattern) => baseHost.glob(pattern),
      exists: (file) => baseHost.exists(file),
    };
  }

  /** By absolute path; undefined when the file cannot be read. */
  textOf(file: string): string | undefined {
    return this.current.get(file) ?? this.documents.get(file)?.text ?? this.baseHost.readFile(file);
  }

  currentDocuments(): SourceDocument[] {
    return this.docs.map((doc) => {
      const text = this.current.get(path.resolve(doc.path));
      return text === undefined ? doc : { ...doc, text };
    });
  }

  /** Records new texts; returns false when none of them differs from what it replaces. */
  commit(texts: Map<string, string>): boolean {
    let changed = false;
    for (const [file, text] of texts) {
      const before = this.textOf(file);
      if (before === text) continue;
      if (!this.originals.has(file) && before !== undefined) this.originals.set(file, before);
      if (!this.names.has(file)) this.names.set(file, this.documents.get(file)?.path ?? file);
      this.current.set(file, text);
      changed = true;
    }
    return changed;
  }

  result(remaining: Finding[], passes: number): FixAllResult {
    const texts = new Map<string, string>();
    const originals = new Map<string, string>();
    for (const [file, text] of this.current) {
      const original = this.originals.get(file);
      if (original === undefined || original === text) continue;
      const name = this.names.get(file) ?? file;
      texts.set(name, text);
      originals.set(name, original);
    }
    return { texts, originals, remaining, passes };
  }
}

/** One fix's edits, by absolute file path (edits re-labelled with that path so applyEdits sees one file name). */
type Candidate = Map<string, TextEdit[]>;

function candidateOf(finding: Finding): Candidate | undefined {
  const edits = finding.fix?.edits ?? [];
  if (edits.length === 0) return undefined;
  const byFile: Candidate = new Map();
  for (const edit of edits) {
    const file = path.resolve(edit.file);
    byFile.set(file, [...(byFile.get(file) ?? []), { ...edit, file }]);
  }
  return byFile;
}

/** The texts `candidates` produce together, or undefined when their edits do not apply (out of range, overlapping). */
function applyCandidates(candidates: readonly Candidate[], session: FixSession): Map<string, string> | undefined {
  const byFile = new Map<string, TextEdit[]>();
  for (const candidate of candidates) {
    for (const [file, edits] of candidate) {
      const list = byFile.get(file);
      if (list) list.push(...edits);
      else byFile.set(file, [...edits]);
    }
  }
  const texts = new Map<string, string>();
  for (const [file, edits] of byFile) {
    const base = session.textOf(file);
    if (base === undefined) return undefined;
    try {
      texts.set(file, applyEdits(base, edits));
    } catch {
      return undefined;
    }
  }
  return texts;
}

/** Whether applyCandidates([candidate]) would succeed, without building the texts (a fix per line of a big file). */
function appliesAlone(candidate: Candidate, session: FixSession): boolean {
  for (const [file, edits] of candidate) {
    const base = session.textOf(file);
    if (base === undefined) return false;
    try {
      orderEdits(base, edits);
    } catch {
      return false;
    }
  }
  return true;
}

export interface FixAllOptions {
  /**
   * Whether fixes may change `file` (absolute). A fix touching any file it refuses is not applied at all, so its
   * finding stays in `remaining`. The CLI refuses files outside the checked paths; default: every file.
   */
  canEdit?: (file: string) => boolean;
}

class Pass {
  private readonly baseIsClean = new Map<string, boolean>();

  constructor(
    private readonly session: FixSession,
    private readonly isClean: SyntaxChecker,
    private readonly canEdit: (file: string) => boolean,
  ) {}

  /** Fixes that apply alone to editable files that parse cleanly, none colliding with an earlier one. */
  select(findings: readonly Finding[]): Candidate[] {
    const taken: Candidate[] = [];
    const takenEdits = new TakenEdits();
    for (const finding of findings) {
      const candidate = candidateOf(finding);
      if (!candidate || ![...candidate.keys()].every((file) => this.canEdit(file) && this.cleanBefore(file))) continue;
      if (takenEdits.collides(candidate) || !appliesAlone(candidate, this.session)) continue;
      taken.push(candidate);
      takenEdits.take(candidate);
    }
    return taken;
  }

  /**
   * The texts of the selected fixes applied together. Usually one parse per file proves them all; when the
   * combination breaks a file, the fixes are retried one at a time so only the culprits are dropped.
   */
  apply(candidates: readonly Candidate[]): Map<string, string> {
    const together = applyCandidates(candidates, this.session);
    if (together && [...together].every(([file, text]) => this.isClean(file, text))) return together;
    const accepted: Candidate[] = [];
    let texts = new Map<string, string>();
    for (const candidate of candidates) {
      const trial = applyCandidates([...accepted, candidate], this.session);
      if (!trial || ![...candidate.keys()].every((file) => this.isClean(file, trial.get(file)!))) continue;
      accepted.push(candidate);
      texts = trial;
    }
    return texts;
  }

  private cleanBefore(file: string): boolean {
    let clean = this.baseIsClean.get(file);
    if (clean === undefined) {
      const text = this.session.textOf(file);
      clean = text !== undefined && this.isClean(file, text);
      this.baseIsClean.set(file, clean);
    }
    return clean;
  }
}

/**
 * Fixes `docs` (and the files they include) as far as the rules' fixes go. Nothing is written: the caller gets the
 * new texts. Takes analyze()'s options and rules, then which files may be edited.
 */
export async function fixAll(
  docs: readonly SourceDocument[],
  options: AnalyzeOptions = {},
  rules: readonly Rule[] = registeredRules,
  fixOptions: FixAllOptions = {},
): Promise<FixAllResult> {
  const canEdit = fixOptions.canEdit ?? (() => true);
  const isClean = await loadSyntaxChecker();
  const session = new FixSession(docs, options.host ?? createFsHost({ maxFileBytes: options.maxFileBytes }));
  const analyzeOptions: AnalyzeOptions = { ...options, host: session.host };
  for (let passes = 0; ; passes++) {
    const findings = await analyze(session.currentDocuments(), analyzeOptions, rules);
    if (passes === MAX_FIX_PASSES) return session.result(findings, passes);
    const pass = new Pass(session, isClean, canEdit);
    const texts = pass.apply(pass.select(findings));
    if (!session.commit(texts)) return session.result(findings, passes);
  }
}
