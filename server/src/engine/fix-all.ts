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
// - only safe fixes apply unless `unsafe` is asked for (ruff's model, engine/fix-safety.ts), and only fixes that were
//   safe when first offered: a finding whose fix was withheld as unsafe stays refused on every later pass, where a
//   safe fix's rewrite may have changed how it looks (engine/withheld-fixes.ts);
// - it ends: after MAX_FIX_PASSES passes it stops and says so (`hitPassLimit`), rather than looping forever or, as
//   it once did after 10 passes, stopping silently with fixes left that a second run would apply.
import { rules as registeredRules } from '../rules/registry.js';
import type { Rule } from '../analysis/rule-api.js';
import { analyze } from './analyze.js';
import { createFsHost } from '../util/fs-host.js';
import { loadSyntaxChecker, type SyntaxChecker } from './syntax-check.js';
import { TakenEdits } from './taken-edits.js';
import { isUnsafeFix } from './fix-safety.js';
import { WithheldFixes } from './withheld-fixes.js';
import { isFixable, type Finding, type SourceDocument } from '../util/types.js';
import {
  appliesAlone,
  applyCandidates,
  candidateOf,
  editsByFile,
  FixSession,
  type Candidate,
  type FixAllResult,
} from './fix-session.js';
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

export type { FixAllResult } from './fix-session.js';

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
    private readonly withheld: WithheldFixes,
  ) {}

  /** Fixes that apply alone to editable files that parse cleanly, none colliding with an earlier one. */
  select(findings: readonly Finding[]): Candidate[] {
    const taken: Candidate[] = [];
    const takenEdits = new TakenEdits();
    for (const finding of findings) {
      if (!this.unsafe && this.refusesUnsafe(finding)) continue;
      const candidate = candidateOf(finding, this.session);
      if (!candidate || ![...candidate.keys()].every((file) => this.canEdit(file) && this.cleanBefore(file))) continue;
      if (takenEdits.collides(candidate) || !appliesAlone(candidate, this.session)) continue;
      taken.push(candidate);
      takenEdits.take(candidate);
    }
    return taken;
  }

  /** The candidates the last apply() kept. */
  private accepted: readonly Candidate[] = [];

  /** How many of the candidates the last apply() kept. */
  get applied(): number {
    return this.accepted.length;
  }

  /**
   * The texts of the selected fixes applied together. Usually one parse per file proves them all; when the
   * combination breaks a file, the fixes are retried one at a time so only the culprits are dropped.
   */
  apply(candidates: readonly Candidate[]): Map<string, string> {
    const together = applyCandidates(candidates, this.session);
    if (together && [...together].every(([file, text]) => this.isClean(file, text))) {
      this.accepted = candidates;
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
    this.accepted = accepted;
    return texts;
  }

  /**
   * The finding's fix is unsafe, now or when first offered (then it is remembered for later passes). The cheap flag
   * first: an unsafe fix left alone is never built.
   */
  private refusesUnsafe(finding: Finding): boolean {
    if (!isFixable(finding)) return false;
    const file = this.session.nameOf(finding.file);
    if (this.withheld.refuses(finding, file)) return true;
    if (!isUnsafeFix(finding) && finding.fix?.safety !== 'unsafe') return false;
    const text = this.session.textOf(file);
    if (text !== undefined) this.withheld.note(finding, file, text);
    return true;
  }

  /** Carries the withheld fixes' places through the edits of the candidates the last apply() kept. */
  followWithheld(): void {
    this.withheld.endPass();
    for (const [file, edits] of editsByFile(this.accepted)) this.withheld.follow(file, this.session.textOf(file)!, edits);
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
  const withheld = new WithheldFixes();
  let applied = 0;
  for (let passes = 0; ; passes++) {
    const findings = await analyze(session.currentDocuments(), analyzeOptions, rules);
    const pass = new Pass(session, isClean, canEdit, fixOptions.unsafe === true, withheld);
    const selected = pass.select(findings);
    if (passes === MAX_FIX_PASSES) {
      // Only a limit hit if something would still apply: a run settling on its last allowed pass is complete.
      return session.result(findings, passes, applied, selected.length > 0 && session.wouldChange(pass.apply(selected)));
    }
    const texts = pass.apply(selected);
    pass.followWithheld();
    if (!session.commit(texts)) return session.result(findings, passes, applied);
    applied += pass.applied;
  }
}
