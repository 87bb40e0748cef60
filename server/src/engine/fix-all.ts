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
//   report;
// - only safe fixes apply unless `unsafe` is asked for (ruff's model, engine/fix-safety.ts);
// - it ends: after MAX_FIX_PASSES passes it stops and says so (`hitPassLimit`), rather than looping forever or, as
//   it once did after 10 passes, stopping silently with fixes left that a second run would apply.
import path from 'node:path';
import { applyEdits, orderEdits } from '../fixes/edits.js';
import { FileIdentities } from '../model/file-identity.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { Rule } from '../analysis/rule-api.js';
import { analyze } from './analyze.js';
import { createFsHost } from '../util/fs-host.js';
import { loadSyntaxChecker, type SyntaxChecker } from './syntax-check.js';
import { TakenEdits } from './taken-edits.js';
import { isUnsafeFix } from './fix-safety.js';
import type { FileHost, Finding, SourceDocument, TextEdit } from '../util/types.js';
import type { AnalyzeOptions } from './types.js';

/**
 * Fixes that keep producing new fixes (a rule fighting another) must still end. Not ESLint's 10: our fixes chain
 * (an upstream made, then its keepalive, then each pass's HTTP/1.1 and Connection, across includes), and a fix that
 * waits for a colliding one waits a whole pass; a bound near that depth once stopped silently with fixes left
 * that a second --fix applied. Converging fixes settle in a handful of passes; 100 is far beyond
 * any seen, and a loop that reaches it is a bug that `hitPassLimit` reports (the CLI exits 1 saying so). A pass is
 * one analysis, so even 100 of them stay in seconds for an ordinary project.
 */
export const MAX_FIX_PASSES = 100;

export interface FixAllResult {
  /**
   * The fixed text of every file whose text changed, once per real file however many paths reach it: documents
   * under their `path` as given, included files under their absolute path (the `file` their findings carry).
   */
  texts: Map<string, string>;
  /** The text each file in `texts` had before the first fix: what a writer checks the disk against. */
  originals: Map<string, string>;
  /** The findings of the final texts, fixable ones included when their fix could not be applied. */
  remaining: Finding[];
  /** How many passes changed something (0 when no fix applied). */
  passes: number;
  /** How many fixes were applied over all passes (each resolved at least one finding): "Fixed N problems". */
  applied: number;
  /**
   * Fixes were still applying when MAX_FIX_PASSES passes had run: the texts are not at a fixed point (fixing them
   * again would change them), and `remaining` may hold fixable findings. A rule fighting another; callers say so.
   */
  hitPassLimit: boolean;
}

/**
 * The texts fixes are applied to: documents, then included files as the host reads them, overlaid by the fixes.
 * Keyed by one absolute name per real file (model/file-identity.ts): a file reached under two paths (a
 * sites-enabled link and its sites-available target) is fixed once, and its new text is what both paths read.
 */
class FixSession {
  private readonly identities: FileIdentities;
  /** By real path: the absolute name the file goes by here, a document's own first. */
  private readonly names = new Map<string, string>();
  /** The rest by that name. */
  private readonly documents = new Map<string, SourceDocument>();
  private readonly current = new Map<string, string>();
  readonly originals = new Map<string, string>();
  readonly host: FileHost;

  constructor(
    private readonly docs: readonly SourceDocument[],
    private readonly baseHost: FileHost,
  ) {
    this.identities = new FileIdentities(baseHost.virtual === true);
    for (const doc of docs) {
      const name = this.nameOf(doc.path);
      if (!this.documents.has(name)) this.documents.set(name, doc);
    }
    this.host = {
      readFile: (file) => this.current.get(this.nameOf(file)) ?? baseHost.readFile(file),
      glob: (pattern, confinement) => baseHost.glob(pattern, confinement),
      exists: (file) => baseHost.exists(file),
      virtual: baseHost.virtual,
    };
  }

  /** The absolute name `file`'s real file goes by in this session: the first it was met under. */
  nameOf(file: string): string {
    const absolute = path.resolve(file);
    const identity = this.identities.of(absolute);
    let name = this.names.get(identity);
    if (name === undefined) this.names.set(identity, (name = absolute));
    return name;
  }

  /** By name (see nameOf); undefined when the file cannot be read. */
  textOf(file: string): string | undefined {
    return this.current.get(file) ?? this.documents.get(file)?.text ?? this.baseHost.readFile(file);
  }

  currentDocuments(): SourceDocument[] {
    return this.docs.map((doc) => {
      const text = this.current.get(this.nameOf(doc.path));
      return text === undefined ? doc : { ...doc, text };
    });
  }

  /** Whether any of `texts` (by name) differs from the file's current text. */
  wouldChange(texts: Map<string, string>): boolean {
    for (const [file, text] of texts) if (this.textOf(file) !== text) return true;
    return false;
  }

  /** Records new texts (by name); returns false when none of them differs from what it replaces. */
  commit(texts: Map<string, string>): boolean {
    let changed = false;
    for (const [file, text] of texts) {
      const before = this.textOf(file);
      if (before === text) continue;
      if (!this.originals.has(file) && before !== undefined) this.originals.set(file, before);
      this.current.set(file, text);
      changed = true;
    }
    return changed;
  }

  /** Texts under the path a document was given by (as the caller wrote it), else the absolute name. */
  result(remaining: Finding[], passes: number, applied: number, hitPassLimit = false): FixAllResult {
    const texts = new Map<string, string>();
    const originals = new Map<string, string>();
    for (const [file, text] of this.current) {
      const original = this.originals.get(file);
      if (original === undefined || original === text) continue;
      const name = this.documents.get(file)?.path ?? file;
      texts.set(name, text);
      originals.set(name, original);
    }
    return { texts, originals, remaining, passes, applied, hitPassLimit };
  }
}

/** One fix's edits, by the session's name of their file (edits re-labelled with it so applyEdits sees one name). */
type Candidate = Map<string, TextEdit[]>;

function candidateOf(finding: Finding, session: FixSession): Candidate | undefined {
  const edits = finding.fix?.edits ?? [];
  if (edits.length === 0) return undefined;
  const byFile: Candidate = new Map();
  for (const edit of edits) {
    const file = session.nameOf(edit.file);
    // Appended in place: copying the list per edit made one fix of 150,000 edits (an upstream with that many users)
    // quadratic.
    const list = byFile.get(file);
    if (list) list.push({ ...edit, file });
    else byFile.set(file, [{ ...edit, file }]);
  }
  return byFile;
}

/** The texts `candidates` produce together, or undefined when their edits do not apply (out of range, overlapping). */
function applyCandidates(candidates: readonly Candidate[], session: FixSession): Map<string, string> | undefined {
  const byFile = new Map<string, TextEdit[]>();
  for (const candidate of candidates) {
    for (const [file, edits] of candidate) {
      // A loop: spreading 150,000 edits into one push call overflows the stack.
      let list = byFile.get(file);
      if (!list) byFile.set(file, (list = []));
      for (const edit of edits) list.push(edit);
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
  /**
   * Apply unsafe fixes too (`--unsafe-fixes`). Default false: an unsafe finding's fix is never built nor applied,
   * and the finding stays in `remaining`. The editor's "fix all" never sets it.
   */
  unsafe?: boolean;
}

class Pass {
  private readonly baseIsClean = new Map<string, boolean>();

  constructor(
    private readonly session: FixSession,
    private readonly isClean: SyntaxChecker,
    private readonly canEdit: (file: string) => boolean,
    private readonly unsafe: boolean,
  ) {}

  /** Fixes that apply alone to editable files that parse cleanly, none colliding with an earlier one. */
  select(findings: readonly Finding[]): Candidate[] {
    const taken: Candidate[] = [];
    const takenEdits = new TakenEdits();
    for (const finding of findings) {
      // The cheap flag first: an unsafe fix left alone is never built.
      if (!this.unsafe && isUnsafeFix(finding)) continue;
      if (!this.unsafe && finding.fix?.safety === 'unsafe') continue;
      const candidate = candidateOf(finding, this.session);
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
  /** How many of the candidates the last apply() kept. */
  applied = 0;

  apply(candidates: readonly Candidate[]): Map<string, string> {
    const together = applyCandidates(candidates, this.session);
    if (together && [...together].every(([file, text]) => this.isClean(file, text))) {
      this.applied = candidates.length;
      return together;
    }
    const accepted: Candidate[] = [];
    let texts = new Map<string, string>();
    for (const candidate of candidates) {
      const trial = applyCandidates([...accepted, candidate], this.session);
      if (!trial || ![...candidate.keys()].every((file) => this.isClean(file, trial.get(file)!))) continue;
      accepted.push(candidate);
      texts = trial;
    }
    this.applied = accepted.length;
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
  let applied = 0;
  for (let passes = 0; ; passes++) {
    const findings = await analyze(session.currentDocuments(), analyzeOptions, rules);
    const pass = new Pass(session, isClean, canEdit, fixOptions.unsafe === true);
    const selected = pass.select(findings);
    if (passes === MAX_FIX_PASSES) {
      // Only a limit hit if something would still apply: a run settling on its last allowed pass is complete.
      return session.result(findings, passes, applied, selected.length > 0 && session.wouldChange(pass.apply(selected)));
    }
    const texts = pass.apply(selected);
    if (!session.commit(texts)) return session.result(findings, passes, applied);
    applied += pass.applied;
  }
}
