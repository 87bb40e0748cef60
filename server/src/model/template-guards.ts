// Pairs statement-level template control actions. They are flat siblings in the tree and may open in one nginx block
// and close in another, so they are paired in document order with a stack, not by tree structure.
import type { Node } from 'web-tree-sitter';
import type { TemplateControl, TemplateGuard, TemplateKeyword } from './types.js';
import { spanOfNode } from './span.js';

const KEYWORDS: ReadonlySet<string> = new Set<TemplateKeyword>([
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

/** Reads a `template_control` node; undefined for a keyword the model does not know. */
export function readTemplateControl(node: Node): TemplateControl | undefined {
  const keyword = node.childForFieldName('keyword')?.text ?? '';
  if (!KEYWORDS.has(keyword)) return undefined;
  const pipeline = (node.childForFieldName('pipeline')?.text ?? '').trim();
  const elseIf = keyword === 'else' && /^if\b/.test(pipeline);
  return {
    keyword: elseIf ? 'else if' : (keyword as TemplateKeyword),
    pipeline: elseIf ? pipeline.slice(2).trim() : pipeline,
    span: spanOfNode(node),
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
