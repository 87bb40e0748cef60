// A rule is data (meta) plus separate steps, as Biome's rules are: detect() decides, once, where the configuration
// is wrong and yields one state per finding; message() words a state; fix() builds a state's edits, and only when
// someone asks for them (the CLI's --fix/--fix-dry-run/SARIF, the language server's code actions and fix-all).
// The hover and the upstream status read the same states (features/rule-states.ts), so they cannot disagree with
// the findings.
import type { Finding, Fix, ResolvedOptions, Severity, Span } from '../util/types.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';

export interface RuleMeta {
  /** Stable kebab-case id; also the file name under rules/ and docs/rules/. */
  id: string;
  description: string;
  defaultSeverity: Severity;
  /** nginx versions the rule applies to, as a semver-like range ("<1.29.7", "*"). */
  nginxVersions: string;
  fixable: boolean;
}

/** What detect() found at one place: where to report it, plus whatever the rule's other steps need. */
export interface RuleState {
  file: string;
  span: Span;
  /** Overrides the rule's severity for this finding (e.g. information for a template-guarded keepalive). */
  severity?: Severity;
  /**
   * Why no fix is offered, when that is known from the analysis alone (fixes/placement.ts: a directive nginx would
   * not accept there); the finding's message then says so, and fix() is never asked.
   */
  withheld?: string;
  /** No fix is offered here and the analysis alone knows it (a shared snippet that is not rewritten, ...). */
  noFix?: true;
  /** The fix changes what strangers or the upstream see (util/types.ts FixSafety): decided here, not when built. */
  unsafeFix?: true;
}

/** A one-line headline (what is wrong and what to do), and optionally the details behind it. */
export interface RuleMessage {
  headline: string;
  detail?: string;
}

export interface RuleContext {
  workspace: Workspace;
  options: ResolvedOptions;
}

export interface Rule<S extends RuleState = RuleState> {
  meta: RuleMeta;
  /** Every place the rule reports, decided once. */
  detect(context: RuleContext): S[];
  /**
   * The states detect() yields inside `block` (the block itself and everything under it), in detect()'s order,
   * without looking at the rest of the workspace's statements; undefined when the rule cannot tell them apart from
   * the rest here. The language server asks after an edit confined to `block` that adds or removes no include,
   * load_module or line (engine/block-rerun.ts): the rule's states outside the block are then the previous
   * analysis's, moved. Absent for rules whose findings outside a block may depend on what it holds (an upstream's
   * users, the first pass to reach an inherited header). A rule with detectWithin is taken to read every argument in
   * the block (analysis/readable-shape.ts lists what the others read): when it declines, it runs on everything.
   * `context.workspace` may be a view holding only the block and the blocks linked to it by upstream names
   * (engine/linked-blocks.ts): the upstreams its passes name are there, other blocks' statements may not be.
   */
  detectWithin?(context: RuleContext, block: Directive): S[] | undefined;
  /**
   * What the rule's states read beyond their own block, declared for the language server's re-run after an edit
   * confined to one block (engine/linked-blocks.ts). `upstream-links`: a state inside a server or upstream block
   * (at a file's top level or in its http{}) reads that block, the levels around it, and only through upstream
   * names the other such blocks: the upstreams its passes name, the passes naming its upstreams (with their
   * levels). Such a rule is re-run on the edited block and the blocks linked to it by a name, in a workspace
   * without the other blocks (analysis/scopes.ts scopeView), and keeps its findings elsewhere, moved; it runs on
   * everything when a finding of it lies outside all such blocks, or a literal pass makes upstream addresses matter.
   */
  readsAcrossBlocks?: 'upstream-links';
  message(state: S, context: RuleContext): RuleMessage;
  /**
   * The edits that resolve `state`, built on demand; undefined when none can be built after all (edits that would
   * collide, no closed block to insert into). Absent for rules that never fix.
   */
  fix?(state: S, context: RuleContext): Fix | undefined;
}

export type { Finding };
