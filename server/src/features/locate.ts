// What sits at an offset of a file: the innermost directive there, which part of it (name, an argument, the `if`
// condition) and the nginx variable under the cursor, if any. Every feature starts here.
import type { Span } from '../util/types.js';
import type { Argument, ConfigFile, Directive } from '../model/types.js';

export type DirectivePart =
  | { kind: 'name' }
  | { kind: 'argument'; index: number; argument: Argument }
  | { kind: 'condition' }
  /** Inside the directive but on none of the above (white space, a block's braces). */
  | { kind: 'other' };

export interface VariableAt {
  /** Without `$`, `{`, `}`. */
  name: string;
  span: Pick<Span, 'startOffset' | 'endOffset'>;
}

export interface Located {
  directive: Directive;
  part: DirectivePart;
  variable: VariableAt | undefined;
}

type Offsets = Pick<Span, 'startOffset' | 'endOffset'>;

/** The cursor touches a span when inside it or right at its end (an editor caret after the last character). */
function touches(span: Offsets, offset: number): boolean {
  return span.startOffset <= offset && offset <= span.endOffset;
}

function innermost(directives: readonly Directive[], offset: number): Directive | undefined {
  // Prefer a statement that strictly contains the offset over one that merely ends there (`a;b` at `b`).
  const inside = directives.find((d) => d.span.startOffset <= offset && offset < d.span.endOffset);
  const found = inside ?? directives.find((d) => touches(d.span, offset));
  if (!found) return undefined;
  return innermost(found.children, offset) ?? found;
}

const VARIABLE = /\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;

/** Variables of an `if (...)` condition, which the model keeps as text only. */
export function conditionVariables(directive: Directive): VariableAt[] {
  if (directive.condition === undefined) return [];
  const start = directive.file.text.indexOf(directive.condition, directive.nameSpan.endOffset);
  if (start === -1) return [];
  return [...directive.condition.matchAll(VARIABLE)].map((match) => ({
    name: match[1] ?? match[2]!,
    span: { startOffset: start + match.index, endOffset: start + match.index + match[0].length },
  }));
}

function conditionSpan(directive: Directive): Offsets | undefined {
  if (directive.condition === undefined) return undefined;
  const start = directive.file.text.indexOf(directive.condition, directive.nameSpan.endOffset);
  return start === -1 ? undefined : { startOffset: start, endOffset: start + directive.condition.length };
}

function partAt(directive: Directive, offset: number): DirectivePart {
  if (touches(directive.nameSpan, offset)) return { kind: 'name' };
  const index = directive.args.findIndex((argument) => touches(argument.span, offset));
  if (index !== -1) return { kind: 'argument', index, argument: directive.args[index]! };
  const condition = conditionSpan(directive);
  if (condition && touches(condition, offset)) return { kind: 'condition' };
  return { kind: 'other' };
}

function variableAt(directive: Directive, part: DirectivePart, offset: number): VariableAt | undefined {
  if (part.kind === 'argument') {
    const variable = part.argument.variables.find((v) => touches(v.span, offset));
    return variable && { name: variable.name, span: variable.span };
  }
  if (part.kind === 'condition') return conditionVariables(directive).find((v) => touches(v.span, offset));
  return undefined;
}

export function locate(file: ConfigFile, offset: number): Located | undefined {
  const directive = innermost(file.directives, offset);
  if (!directive) return undefined;
  const part = partAt(directive, offset);
  return { directive, part, variable: variableAt(directive, part, offset) };
}
