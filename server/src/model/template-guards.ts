// Pairs statement-level template control actions. They are flat siblings in the tree and may open in one nginx block
// and close in another, so they are paired in document order with a stack, not by tree structure.
import type { TreeCursor } from 'web-tree-sitter';
import type { LineIndex } from './line-index.js';
import type { TemplateControl, TemplateGuard, TemplateKeyword } from './types.js';

/** The words that make a `{{ }}` action a control action (also what editors colour as keywords). */
export const TEMPLATE_CONTROL_WORDS: ReadonlySet<string> = new Set<TemplateKeyword>([
  'if',
  'else',
  'range',
  'with',
  'end',
  'define',
  'block',
  'template',
  'break',
  'continue',
]);

const OPENERS: ReadonlySet<TemplateKeyword> = new Set<TemplateKeyword>(['if', 'range', 'with', 'define', 'block']);

/** The text of the first child in each of the fields `names` of the cursor's node; the cursor does not move. */
function fieldTexts(cursor: TreeCursor, text: string, names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  if (!cursor.gotoFirstChild()) return found;
  do {
    const field = cursor.currentFieldName;
    if (field && names.includes(field) && !found.has(field)) found.set(field, text.slice(cursor.startIndex, cursor.endIndex));
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return found;
}

/** Reads the `template_control` node at the cursor (which does not move); undefined for a keyword not known here. */
export function readTemplateControl(cursor: TreeCursor, text: string, lines: LineIndex): TemplateControl | undefined {
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  const fields = fieldTexts(cursor, text, ['keyword', 'pipeline']);
  const keyword = fields.get('keyword') ?? '';
  if (!TEMPLATE_CONTROL_WORDS.has(keyword)) return undefined;
  const pipeline = (fields.get('pipeline') ?? '').trim();
  const elseIf = keyword === 'else' && /^if\b/.test(pipeline);
  return {
    keyword: elseIf ? 'else if' : (keyword as TemplateKeyword),
    pipeline: elseIf ? pipeline.slice(2).trim() : pipeline,
    span: lines.span(start, end),
  };
}

/**
 * The template scopes open at the current point of a document-order walk. Unbalanced actions are tolerated:
 * an `end` or `else` with nothing open is ignored, and scopes still open at the end of the file simply stay open.
 */
export class TemplateScopeStack {
  private open: TemplateGuard[] = [];

  apply(control: TemplateControl): void {
    if (OPENERS.has(control.keyword)) {
      this.open = [...this.open, { control, inElse: false }];
    } else if (control.keyword === 'else' || control.keyword === 'else if') {
      const top = this.open.at(-1);
      if (top) this.open = [...this.open.slice(0, -1), { control: top.control, inElse: true, branch: control }];
    } else if (control.keyword === 'end') {
      this.open = this.open.slice(0, -1);
    }
  }

  /** Outermost first. The array is replaced, never mutated, so directives can share it safely. */
  current(): TemplateGuard[] {
    return this.open;
  }
}
