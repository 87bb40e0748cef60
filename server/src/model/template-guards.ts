// Pairs statement-level template control actions. They are flat siblings in the tree and may open in one nginx block
// and close in another, so they are paired in document order with a stack, not by tree structure.
import type { TreeCursor } from 'web-tree-sitter';
import type { LineIndex } from './line-index.js';
import type { TemplateControl, TemplateDialect, TemplateGuard, TemplateKeyword } from './types.js';

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

/** Keywords that open a template scope (paired with an `end`); guards are all of them but `scope`. */
export const TEMPLATE_OPENERS: ReadonlySet<TemplateKeyword> = new Set<TemplateKeyword>([...OPENERS, 'scope']);

/**
 * Jinja tags read as the Go keyword of the same meaning. `{% set x %}...{% endset %}` (no `=`) captures its body, as
 * `define` does; `{% set x = 1 %}`, `import`, `from`, `do` and unknown tags are no control at all.
 */
const JINJA_TAGS: ReadonlyMap<string, TemplateKeyword> = new Map<string, TemplateKeyword>([
  ['if', 'if'],
  ['elif', 'else if'],
  ['else', 'else'],
  ['for', 'range'],
  ['block', 'block'],
  ['macro', 'define'],
  ['call', 'define'],
  ['with', 'scope'],
  ['filter', 'scope'],
  ['autoescape', 'scope'],
  ['raw', 'scope'],
  ['trans', 'scope'],
  ['include', 'template'],
  ['extends', 'template'],
  ['break', 'break'],
  ['continue', 'continue'],
]);

const JINJA_ENDS: ReadonlySet<string> = new Set([
  'endif',
  'endfor',
  'endblock',
  'endmacro',
  'endcall',
  'endset',
  'endwith',
  'endfilter',
  'endautoescape',
  'endraw',
  'endtrans',
]);

function jinjaKeyword(tag: string, pipeline: string): TemplateKeyword | undefined {
  if (JINJA_ENDS.has(tag)) return 'end';
  if (tag === 'set') return pipeline.includes('=') ? undefined : 'define';
  return JINJA_TAGS.get(tag);
}

/** The action as written in its dialect, white space normalised: `{{ if $.X }}`, `{% for h in hosts %}`. */
export function formatControl(control: TemplateControl, pipeline: string = control.pipeline): string {
  const rest = pipeline.trim() === '' ? '' : ` ${pipeline.trim()}`;
  return control.dialect === 'jinja' ? `{% ${control.tag ?? control.keyword}${rest} %}` : `{{ ${control.keyword}${rest} }}`;
}

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

/**
 * Reads the `template_control` node at the cursor (which does not move); undefined for a keyword not known here. A
 * `{% ... %}` tag is Jinja's; in a Jinja file a `{{ ... }}` action is always an expression (`{{ range(3) | join }}`).
 */
export function readTemplateControl(
  cursor: TreeCursor,
  text: string,
  lines: LineIndex,
  dialect: TemplateDialect = 'go',
): TemplateControl | undefined {
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  const jinjaTag = text.startsWith('{%', start);
  if (!jinjaTag && dialect === 'jinja') return undefined;
  const fields = fieldTexts(cursor, text, ['keyword', 'pipeline']);
  const keyword = fields.get('keyword') ?? '';
  const pipeline = (fields.get('pipeline') ?? '').trim();
  if (jinjaTag) {
    const normal = jinjaKeyword(keyword, pipeline);
    return normal && { keyword: normal, dialect: 'jinja', tag: keyword, pipeline, span: lines.span(start, end) };
  }
  if (!TEMPLATE_CONTROL_WORDS.has(keyword)) return undefined;
  const elseIf = keyword === 'else' && /^if\b/.test(pipeline);
  return {
    keyword: elseIf ? 'else if' : (keyword as TemplateKeyword),
    pipeline: elseIf ? pipeline.slice(2).trim() : pipeline,
    span: lines.span(start, end),
  };
}

/**
 * Template blocks nested deeper than this keep the guards of their outermost levels only (real templates nest a
 * handful deep): a directive's guard list is a copy, so an unbounded one would cost memory quadratic in the nesting
 * when every level holds a directive. The model reports the file (`templateNestingProblem`).
 */
export const MAX_TEMPLATE_NESTING = 100;

/**
 * The template scopes open at the current point of a document-order walk. Unbalanced actions are tolerated:
 * an `end` or `else` with nothing open is ignored, and scopes still open at the end of the file simply stay open.
 * Each action costs O(1): the open guards live in one array changed in place, and `current()` copies it only when a
 * directive asks after a change (copying at every action made nested blocks quadratic).
 */
export class TemplateScopeStack {
  /** Every open scope, innermost last: a guard, or a Jinja `scope` that an `end` closes but that guards nothing. */
  private readonly scopes: Array<TemplateGuard | 'scope'> = [];
  /** The open guards, outermost first; only the first MAX_TEMPLATE_NESTING are kept. */
  private readonly open: TemplateGuard[] = [];
  /** How many guards are open, counting those beyond the limit. */
  private depth = 0;
  private snapshot: TemplateGuard[] | undefined = [];
  /** The first opener that went beyond the limit. */
  tooDeep: TemplateControl | undefined;

  apply(control: TemplateControl): void {
    if (control.keyword === 'scope') {
      this.scopes.push('scope');
    } else if (OPENERS.has(control.keyword)) {
      const guard: TemplateGuard = { control, inElse: false };
      this.scopes.push(guard);
      this.setGuard(this.depth++, guard);
    } else if (control.keyword === 'else' || control.keyword === 'else if') {
      const top = this.scopes.at(-1);
      if (top && top !== 'scope') {
        const branch: TemplateGuard = { control: top.control, inElse: true, branch: control };
        this.scopes[this.scopes.length - 1] = branch;
        this.setGuard(this.depth - 1, branch);
      }
    } else if (control.keyword === 'end') {
      const top = this.scopes.pop();
      if (top && top !== 'scope') {
        this.depth--;
        if (this.depth < MAX_TEMPLATE_NESTING) {
          this.open.pop();
          this.snapshot = undefined;
        }
      }
    }
  }

  private setGuard(level: number, guard: TemplateGuard): void {
    if (level >= MAX_TEMPLATE_NESTING) {
      this.tooDeep ??= guard.control;
      return;
    }
    this.open[level] = guard;
    this.snapshot = undefined;
  }

  /** Outermost first. The array is never mutated after it is returned, so directives share it safely. */
  current(): TemplateGuard[] {
    return (this.snapshot ??= this.open.slice());
  }
}
