// Statement-level template actions paired into blocks: which `{{ else }}` branches and which `{{ end }}` belong to
// an `{{ if }}` / `{{ range }}` / `{{ with }}`. Fixes need the `{{ end }}` to put a line after a whole
// `{{ range }} server ...; {{ end }}` (inside it, the line would be rendered once per server), and the branches to
// know whether an `{{ if }}` is a plain opt-in (no else) they may unwrap.
//
//   templateBlockOf(file, opener)          { opener, branches, end } or undefined (an opener that is never closed)
//   enclosingGuardsWithin(d, container)    d's guards that do not also enclose container, outermost first
//   endAfterGuards(d, container)           the offset just past the `{{ end }}` closing the outermost of those guards;
//                                          d's own end when it has none; undefined when that end lies outside
//                                          container's block (a guard spanning blocks: nothing safe to say)
//   guardsExclusive(a, b)                  a and b sit in different branches of one `{{ if }}`: never rendered together
//
// Pairing follows model/template-guards.ts (a stack in document order, unbalanced actions tolerated). Jinja tags are
// read as their Go counterparts (`{% for %}` as `range`, `{% endfor %}` as `end`), so the same pairing serves both.
import { TEMPLATE_OPENERS } from '../model/template-guards.js';
import type { ConfigFile, Directive, TemplateControl, TemplateGuard } from '../model/types.js';

export interface TemplateBlock {
  opener: TemplateControl;
  /** `{{ else }}` / `{{ else if }}` actions of this block, in order. */
  branches: TemplateControl[];
  end: TemplateControl;
}

const cache = new WeakMap<ConfigFile, Map<TemplateControl, TemplateBlock>>();

function pair(file: ConfigFile): Map<TemplateControl, TemplateBlock> {
  const blocks = new Map<TemplateControl, TemplateBlock>();
  const open: { opener: TemplateControl; branches: TemplateControl[] }[] = [];
  const ordered = [...file.templateControls].sort((a, b) => a.span.startOffset - b.span.startOffset);
  for (const control of ordered) {
    if (TEMPLATE_OPENERS.has(control.keyword)) open.push({ opener: control, branches: [] });
    else if (control.keyword === 'else' || control.keyword === 'else if') open.at(-1)?.branches.push(control);
    else if (control.keyword === 'end') {
      const top = open.pop();
      if (top) blocks.set(top.opener, { ...top, end: control });
    }
  }
  return blocks;
}

export function templateBlockOf(file: ConfigFile, opener: TemplateControl): TemplateBlock | undefined {
  let blocks = cache.get(file);
  if (!blocks) {
    blocks = pair(file);
    cache.set(file, blocks);
  }
  return blocks.get(opener);
}

export function enclosingGuardsWithin(directive: Directive, container: Directive): TemplateGuard[] {
  if (container.file !== directive.file) return directive.guards;
  return directive.guards.filter((guard) => !container.guards.includes(guard));
}

export function endAfterGuards(directive: Directive, container: Directive): number | undefined {
  const outermost = enclosingGuardsWithin(directive, container)[0];
  if (!outermost) return directive.span.endOffset;
  const block = templateBlockOf(directive.file, outermost.control);
  const limit = container.file === directive.file ? container.blockSpan?.endOffset : undefined;
  if (!block || limit === undefined || block.end.span.endOffset >= limit) return undefined;
  return block.end.span.endOffset;
}

function branchOf(guard: TemplateGuard): TemplateControl | undefined {
  return guard.inElse ? guard.branch : undefined;
}

export function guardsExclusive(a: Directive, b: Directive): boolean {
  if (a.file !== b.file) return false;
  return a.guards.some((ga) =>
    b.guards.some((gb) => ga.control === gb.control && ga.control.keyword === 'if' && branchOf(ga) !== branchOf(gb)),
  );
}
