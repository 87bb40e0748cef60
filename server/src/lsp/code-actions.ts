// textDocument/codeAction: for each finding under the cursor, its fix (preferred when safe) and "Ignore <rule> on
// this line"; for the document, source.fixAll.nginx-keepalive. The fix-all edit runs fixAll() to a fixpoint, so when
// the client can resolve actions lazily it is only computed when chosen. Fix-all applies safe fixes only (as --fix
// does): an unsafe fix changes what the upstream or strangers see, so it is only ever applied by choosing it, as a
// quick fix that is never preferred (editors apply a preferred fix on a shortcut, or on save) and says it is unsafe.
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type WorkspaceEdit,
} from './protocol.js';
import path from 'node:path';
import { lineStartOf } from '../fixes/edits.js';
import { suppressionEdit, UNUSED_SUPPRESSION_RULE_ID } from '../engine/suppressions.js';
import type { Finding } from '../util/types.js';
import { fixApplies, isUnsafeFix } from '../engine/fix-safety.js';
import { findRule } from '../rules/registry.js';
import { toDiagnostic } from './diagnostics.js';
import type { OpenDocuments } from './documents.js';
import { fixDocument, type FixContext } from './fix-document.js';
import type { OpenDocument } from './open-document.js';
import type { DocumentSnapshot } from './snapshot.js';
import { clampRange } from './text-edits.js';
import { groupEdits, type WorkspaceEditBuilder } from './workspace-edit.js';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.nginx-keepalive`;
export const FIX_ALL_TITLE = 'Fix all nginx-keepalive problems in this file';

export interface CodeActionContext extends FixContext {
  documents: OpenDocuments;
  snapshot(uri: string): Promise<DocumentSnapshot | undefined>;
  edits: WorkspaceEditBuilder;
  /** The client resolves `edit` lazily (codeAction/resolve). */
  resolvesEdits: boolean;
}

interface FixAllData {
  uri: string;
}

/** LSP kind matching: asking for "source.fixAll" includes "source.fixAll.nginx-keepalive". */
function wanted(kind: string, only: readonly string[] | undefined): boolean {
  return !only || only.some((requested) => kind === requested || kind.startsWith(`${requested}.`));
}

function inRange(finding: Finding, start: number, end: number): boolean {
  return finding.span.startOffset <= end && finding.span.endOffset >= start;
}

export async function codeActions(params: CodeActionParams, context: CodeActionContext): Promise<CodeAction[]> {
  const document = context.documents.get(params.textDocument.uri);
  const snapshot = document && (await context.snapshot(document.uri));
  // Edits are computed for the analyzed text only: if the document moved on meanwhile, offer nothing stale.
  if (!document || !snapshot || snapshot.version !== document.version) return [];
  const range = clampRange(document.textDocument, params.range);
  const start = document.textDocument.offsetAt(range.start);
  const end = document.textDocument.offsetAt(range.end);
  const only = params.context.only;
  const actions: CodeAction[] = [];
  if (wanted(CodeActionKind.QuickFix, only)) {
    for (const finding of snapshot.findings.filter((candidate) => inRange(candidate, start, end))) {
      for (const action of quickFixes(finding, document, snapshot, context)) actions.push(action);
    }
  }
  if (wanted(FIX_ALL_KIND, only) && snapshot.findings.some((finding) => fixApplies(finding, false))) {
    const action: CodeAction = { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, data: { uri: document.uri } satisfies FixAllData };
    actions.push(context.resolvesEdits ? action : await resolveFixAll(action, context));
  }
  return actions;
}

function quickFixes(finding: Finding, document: OpenDocument, snapshot: DocumentSnapshot, context: CodeActionContext): CodeAction[] {
  const diagnostic = toDiagnostic(finding, document.textDocument);
  const actions: CodeAction[] = [];
  const fixEdit = finding.fix && fixWorkspaceEdit(finding, snapshot, context);
  if (finding.fix && fixEdit) {
    const unsafe = isUnsafeFix(finding) || finding.fix.safety === 'unsafe';
    actions.push({
      title: unsafe ? unsafeTitle(finding.fix.title) : finding.fix.title,
      kind: CodeActionKind.QuickFix,
      isPreferred: !unsafe,
      diagnostics: [diagnostic],
      edit: fixEdit,
    });
  }
  if (isSuppressible(finding.ruleId)) {
    const indent = /^[ \t]*/.exec(snapshot.text.slice(lineStartOf(snapshot.text, finding.span.startOffset)))![0];
    const edit = suppressionEdit(snapshot.text, finding, snapshot.file.eol, indent);
    const ignore = context.edits.build([{ path: snapshot.path, text: snapshot.text, edits: [edit] }]);
    if (ignore) {
      actions.push({ title: `Ignore ${finding.ruleId} on this line`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: ignore });
    }
  }
  return actions;
}

/**
 * The rule's title says what the fix changes ("Send X-Real-IP to fonts.gstatic.com too"); the suffix says it is
 * more than connection reuse, unless the title already does.
 */
export function unsafeTitle(title: string): string {
  return /\bunsafe\b/i.test(title) ? title : `${title} (unsafe)`;
}

/**
 * Rules a line comment can silence. Not internal-error (no rule: the comment would itself be reported) nor
 * unused-suppression (it is reported on a comment line, which a comment above cannot target; its fix removes it).
 */
function isSuppressible(ruleId: string): boolean {
  return findRule(ruleId) !== undefined && ruleId !== UNUSED_SUPPRESSION_RULE_ID;
}

/** The fix's edits in every file they touch, each against the text the snapshot analyzed. */
function fixWorkspaceEdit(finding: Finding, snapshot: DocumentSnapshot, context: CodeActionContext): WorkspaceEdit | undefined {
  const texts = new Map(snapshot.workspace.files.map((file) => [path.resolve(file.path), file.text] as const));
  const files = groupEdits(finding.fix!.edits, (file) => texts.get(file), (file) => path.resolve(file));
  return files && context.edits.build(files);
}

/** codeAction/resolve for the fix-all action: computed for the document's current version. */
export async function resolveFixAll(action: CodeAction, context: CodeActionContext): Promise<CodeAction> {
  const uri = (action.data as FixAllData | undefined)?.uri;
  const document = uri === undefined ? undefined : context.documents.get(uri);
  if (!document) return action;
  const text = document.text;
  const fixed = await fixDocument(document, context);
  // Computed from `text`: if the document changed meanwhile, WorkspaceEditBuilder refuses the stale edit.
  const edit = fixed && fixed.text === text ? context.edits.build([fixed]) : undefined;
  return edit ? { ...action, edit } : action;
}
