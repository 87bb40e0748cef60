// The model of an edited plain file, built from the model of its previous text: an edit that lies inside one block
// (a server, an upstream, a map, a location at the top of a snippet: a statement of the file or of an http, stream,
// mail or events block) re-reads that block alone and moves the statements after it. Everything else is read afresh
// by the caller. The result equals the model a fresh read of the new text builds (test/property/incremental-
// analysis.test.ts holds it to that after any sequence of edits).
//
// The previous model is taken over: its statements get the new file through the holder they share (directive-node.ts),
// and the spans after the edit are carried over in place, a unit at a time by moving its frame (line-index.ts
// SpanFrame), so a keystroke costs the edited block and the units after it, not every span of a large file. Findings
// of the previous analysis hold some of those spans: ModelEdit.carried() tells them apart from spans still in the
// previous text's offsets. The caller must not read the previous model afterwards; the language server drops it as
// soon as the new one is built.
import { detectEol } from './build.js';
import { LineIndex, OffsetSpan, indentAt } from './line-index.js';
import { MAX_NESTING_DEPTH, limitNesting } from './nesting-limit.js';
import { findStructureProblems } from './structure-problems.js';
import { nginxFirstError } from './nginx-first-error.js';
import { isPlainStretch, readPlainStatementAt, UNIT_CONTAINERS } from './text-reader.js';
import { DirectiveNode, FileHome } from './directive-node.js';
import { linesOf, withLines } from './file-lines.js';
import type { Span } from '../util/types.js';
import type { ConfigFile, Directive } from './types.js';

/**
 * Directives no rule reads the arguments of (their names only): free-form values in nginx's table (no flag or enum
 * words the `directive` rule checks), never quoted in analysis/, rules/ or fixes/. test/model/incremental-model.test.ts
 * holds the list to both. Typing in their arguments changes no finding, which the language server relies on.
 */
export const INERT_ARGUMENT_DIRECTIVES: ReadonlySet<string> = new Set([
  'server_name', 'root', 'index', 'error_log', 'access_log', 'ssl_certificate', 'ssl_certificate_key',
]);

/** How a model was derived from the previous one (for the language server's reuse of that model's findings). */
export interface ModelEdit {
  previous: ConfigFile;
  stretch: ChangedStretch;
  /**
   * True when the edited block differs from the old one only in literal arguments of INERT_ARGUMENT_DIRECTIVES (same
   * statements, same argument counts, no variable on either side, the same quoting), and no line began or ended
   * (`linesKept`): every finding is then the previous one, moved.
   */
  inertOnly: boolean;
  /**
   * True when no edit since the previous model removed or typed a line break: every statement is on the line it was
   * on, so the lines messages quote ("first on line 12") still hold. A count of breaks before and after cannot tell:
   * a break removed in one place and typed in another leaves the count and moves every line between them.
   */
  linesKept: boolean;
  /** The block the edit re-read, in the previous model (its spans in the previous text's offsets). */
  replaced: Directive;
  /** That block as read from the new text, now in the new model. */
  edited: Directive;
  /** A span of the previous text lying before or after the stretch, in the new text (findings are moved with it). */
  move(span: Span): Span;
  /** True for a span of the previous model that the edit carried into the new text's offsets (it lies after the edit). */
  carried(span: Span): boolean;
}

/**
 * Moves spans of the previous text lying wholly before or after the changed stretch: one before it is kept (its
 * positions, read from the previous text's line index, are still right), one after it is shifted by the stretch's
 * delta and reads its positions from the new text's index.
 */
function spanMover(stretch: ChangedStretch, lines: LineIndex): (span: Span) => Span {
  return (span) => (span.endOffset <= stretch.start ? span : lines.span(span.startOffset + stretch.delta, span.endOffset + stretch.delta));
}

const edits = new WeakMap<ConfigFile, ModelEdit>();

/** How `file` was derived from an earlier model, if it was. */
export function modelEditOf(file: ConfigFile): ModelEdit | undefined {
  return edits.get(file);
}

/**
 * Forgets `edit` once an analysis has built on it (engine/analyze.ts): no later analysis can, as it builds on that
 * one, whose model is the new one. The record was the last holder of the previous model, and so of the previous text
 * (a second copy of a 1 MB document's) and the block the edit replaced, until the next edit.
 */
export function settleModelEdit(edit: ModelEdit): void {
  edits.delete(edit.edited.file);
}

function inertArgument(name: string, before: Directive['args'][number], after: Directive['args'][number]): boolean {
  if (before.raw === after.raw) return true;
  return (
    INERT_ARGUMENT_DIRECTIVES.has(name) &&
    before.variables.length === 0 &&
    after.variables.length === 0 &&
    before.quoted === after.quoted &&
    !before.templated &&
    !after.templated
  );
}

/** Same statements with the same names, conditions and argument counts; differing arguments all inert. */
function differsOnlyInert(before: Directive, after: Directive): boolean {
  if (before.name !== after.name || before.condition !== after.condition) return false;
  if (before.args.length !== after.args.length || before.children.length !== after.children.length) return false;
  if ((before.blockSpan === undefined) !== (after.blockSpan === undefined)) return false;
  for (let i = 0; i < before.args.length; i++) if (!inertArgument(before.name, before.args[i]!, after.args[i]!)) return false;
  for (let i = 0; i < before.children.length; i++) if (!differsOnlyInert(before.children[i]!, after.children[i]!)) return false;
  return true;
}

/**
 * What changed since the previous model's text, in that text's offsets: characters from `start` to `oldEnd` were
 * replaced, and everything after moved by `delta`. Several edits compose into the one stretch covering them all;
 * `linesKept` says none of them removed or typed a line break (the stretch alone cannot tell where breaks moved).
 */
export interface ChangedStretch {
  start: number;
  oldEnd: number;
  delta: number;
  linesKept: boolean;
}

/**
 * `stretch` followed by the edit replacing `start`..`end` of the current text with `insertedLength` characters;
 * `breaksLines`: the replaced or the inserted text holds a line break.
 */
export function composeChange(
  stretch: ChangedStretch | undefined,
  start: number,
  end: number,
  insertedLength: number,
  breaksLines: boolean,
): ChangedStretch {
  const delta = insertedLength - (end - start);
  if (!stretch) return { start, oldEnd: end, delta, linesKept: !breaksLines };
  // Offsets before stretch.start are the same in both texts; those after its end moved by stretch.delta.
  const changedEnd = stretch.oldEnd + stretch.delta;
  const oldEnd = end > changedEnd ? end - stretch.delta : stretch.oldEnd;
  return { start: Math.min(start, stretch.start), oldEnd, delta: stretch.delta + delta, linesKept: stretch.linesKept && !breaksLines };
}

/** The statement of `list` whose block holds the whole stretch between its braces. */
function blockHolding(list: readonly Directive[], stretch: ChangedStretch): Directive | undefined {
  let low = 0;
  let high = list.length - 1;
  // Statements are in text order and do not overlap: the last one starting before the stretch is the only candidate.
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (list[middle]!.span.startOffset < stretch.start) low = middle;
    else high = middle - 1;
  }
  const candidate = list[low];
  const block = candidate?.blockSpan;
  if (!block || stretch.start <= block.startOffset || stretch.oldEnd >= block.endOffset) return undefined;
  return candidate;
}

/** The edited block and its ancestors (outermost first), or undefined when the edit is not inside one block. */
function editedBlock(file: ConfigFile, stretch: ChangedStretch): Directive[] | undefined {
  const path: Directive[] = [];
  let block = blockHolding(file.directives, stretch);
  while (block) {
    path.push(block);
    if (!UNIT_CONTAINERS.has(block.name)) return path;
    const inner = blockHolding(block.children, stretch);
    if (!inner) return undefined;
    block = inner;
  }
  return undefined;
}

/**
 * Carries the spans of a statement after the edit into the new text. A span of another kind than OffsetSpan is
 * replaced by a moved one; an OffsetSpan is not stored again (a store into the old model costs the collector's
 * barriers even when it writes the same object).
 */
function moveSpans(directive: Directive, delta: number, lines: LineIndex, move: (span: Span) => Span): void {
  const { span, nameSpan, blockSpan } = directive;
  if (span instanceof OffsetSpan) span.carry(delta, lines);
  else directive.span = move(span);
  if (nameSpan instanceof OffsetSpan) nameSpan.carry(delta, lines);
  else directive.nameSpan = move(nameSpan);
  if (blockSpan instanceof OffsetSpan) blockSpan.carry(delta, lines);
  else if (blockSpan) directive.blockSpan = move(blockSpan);
  for (const arg of directive.args) {
    if (arg.span instanceof OffsetSpan) arg.span.carry(delta, lines);
    else arg.span = move(arg.span);
    for (const variable of arg.variables) {
      if (variable.span instanceof OffsetSpan) variable.span.carry(delta, lines);
      else variable.span = move(variable.span);
    }
  }
}

/**
 * Moves the statements after `edited` (and the ends of its ancestors' blocks) by `delta`; a statement whose line
 * begins inside the edited block gets its indent again (only one sharing the block's last line). Their file comes
 * from the holder the model's statements share (directive-node.ts): nothing before the edit is visited.
 */
interface CarryOver {
  file: ConfigFile;
  edited: Directive;
  /** Where the edited block ends in the new text. */
  editedEnd: number;
  /** The end of the line the edited block ends on: a statement starting up to there shares that line. */
  editedLineEnd: number;
  delta: number;
  lines: LineIndex;
  move: (span: Span) => Span;
}

function carryOver(list: readonly Directive[], carry: CarryOver): void {
  const { edited, editedEnd, delta, lines } = carry;
  for (const directive of list) {
    if (directive === edited) continue;
    const start = directive.span.startOffset;
    if (start >= editedEnd - delta) {
      carryAfter(directive, carry);
    } else if (directive.span.endOffset > edited.span.startOffset) {
      // An ancestor: it starts before the edited block and ends after it.
      directive.span = lines.span(start, directive.span.endOffset + delta);
      directive.blockSpan = lines.span(directive.blockSpan!.startOffset, directive.blockSpan!.endOffset + delta);
      carryOver(directive.children, carry);
    }
  }
}

/**
 * Carries a statement after the edit: a unit read with a frame of its own (line-index.ts SpanFrame) by moving that
 * frame, which moves every span in it at once; any other statement span by span.
 */
function carryAfter(directive: Directive, carry: CarryOver): void {
  const { delta, lines } = carry;
  const frame = directive.span instanceof OffsetSpan ? directive.span.unitFrame() : undefined;
  if (frame) frame.carry(delta, lines);
  else moveSpans(directive, delta, lines, carry.move);
  const onEditedLine = directive.span.startOffset <= carry.editedLineEnd;
  if (onEditedLine) directive.indent = indentAt(carry.file.text, lines, directive.span.startOffset);
  // A unit's own statements moved with its frame; a container's are units of their own.
  if (!frame || UNIT_CONTAINERS.has(directive.name)) for (const child of directive.children) carryAfter(child, carry);
  else if (onEditedLine) reindent(directive.children, carry);
}

/** Gives the statements of `list` (and of their blocks) beginning on the edited block's last line their indent again. */
function reindent(list: readonly Directive[], carry: CarryOver): void {
  for (const directive of list) {
    if (directive.span.startOffset > carry.editedLineEnd) return;
    directive.indent = indentAt(carry.file.text, carry.lines, directive.span.startOffset);
    reindent(directive.children, carry);
  }
}

/**
 * The model of `text`, the previous model's text with `stretch` changed, or undefined when it must be read afresh:
 * a template or a file with syntax problems, an edit outside any block or touching a block's braces, or a block
 * whose new text the reader declines, ends elsewhere, or has a problem.
 */
export function updatedModel(previous: ConfigFile, text: string, stretch: ChangedStretch): ConfigFile | undefined {
  if (previous.isTemplate || previous.syntaxProblems.length > 0 || previous.templateControls.length > 0) return undefined;
  const path = editedBlock(previous, stretch);
  if (!path) return undefined;
  const old = path[path.length - 1]!;
  const home = DirectiveNode.homeOf(old);
  if (!home) return undefined;
  const parent = path[path.length - 2];
  const start = old.span.startOffset;
  const end = old.span.endOffset + stretch.delta;
  if (end > text.length || !isPlainStretch(text, start, end)) return undefined;
  const before = linesOf(previous);
  const lines = before ? LineIndex.edited(before, text, stretch.start, stretch.oldEnd, stretch.delta) : new LineIndex(text);
  const file: ConfigFile = { ...previous, text, directives: previous.directives.slice(), syntaxProblems: [], eol: detectEol(text) };
  const source = { text, lines, hasErrors: false };
  const read = readPlainStatementAt(home, source, { offset: start, parent, depth: path.length - 1, guards: old.guards });
  if (!read || read.end !== end || read.directive.name !== old.name) return undefined;
  const edited = read.directive;
  if (limitNesting([edited], MAX_NESTING_DEPTH - (path.length - 1)).length > 0 || findStructureProblems([edited]).length > 0) return undefined;
  // What nginx's tokenizer rejects in the block (a quote the reader took otherwise): the whole file is read again.
  if (nginxFirstError(text.slice(start, end)) !== undefined) return undefined;
  const linesKept = stretch.linesKept;
  const inertOnly = linesKept && differsOnlyInert(old, edited);
  const move = spanMover(stretch, lines);
  // The previous model's own record goes: each model holds at most the one before it, not every version since opening.
  edits.delete(previous);
  const carried = (span: Span) => span instanceof OffsetSpan && span.readsFrom(lines) && span.startOffset >= end;
  edits.set(file, { previous, stretch, inertOnly, linesKept, replaced: old, edited, move, carried });
  const siblings = parent ? (parent.children = parent.children.slice()) : file.directives;
  siblings[siblings.indexOf(old)] = edited;
  const newline = text.indexOf('\n', end);
  const editedLineEnd = newline === -1 ? text.length : newline;
  // The statements the models share now belong to the new one; the block the edit replaced stays the previous one's.
  DirectiveNode.rehome(old, new FileHome(previous));
  home.file = file;
  carryOver(file.directives, { file, edited, editedEnd: end, editedLineEnd, delta: stretch.delta, lines, move });
  return withLines(file, lines);
}
