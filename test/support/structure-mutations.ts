// Mutations of real configs for the overall agreement test (test/rules/nginx-agreement.test.ts), the kinds issue 28
// names besides the value ones (support/value-mutations.ts): a misspelt name, a directive where its context forbids
// it, a wrong number of arguments, a missing `;` (nginx reads the next line as more arguments), an opening quote with
// no closing one, a stray `}` and a missing `}`. Each changes one place of a file nginx accepts. Deterministic: the
// same corpus gives the same mutations.
import { directiveEntries, directiveIn, type DirectiveContext } from '../../server/src/model/directive-table.js';
import type { Directive } from '../../server/src/model/types.js';

export type StructureKind = 'name' | 'context' | 'arity' | 'missing ;' | 'open quote' | 'stray }' | 'missing }';

export interface StructureMutation {
  kind: StructureKind;
  text: string;
  /** What was done, for the report. */
  what: string;
}

function* all(list: readonly Directive[]): Generator<Directive> {
  for (const directive of list) {
    yield directive;
    yield* all(directive.children);
  }
}

/** The context a directive of an http, server or location snippet is in, by its block (top level: the snippet's). */
export function contextOf(directive: Directive, top: DirectiveContext): DirectiveContext {
  const parent = directive.parent?.name;
  if (parent === undefined) return top;
  if (parent === 'if') return directive.parent?.parent?.name === 'server' ? 'if-in-server' : 'if-in-location';
  return (['http', 'server', 'location', 'upstream', 'limit_except'] as const).find((c) => c === parent) ?? 'location';
}

const replaceSpan = (text: string, start: number, end: number, by: string): string => text.slice(0, start) + by + text.slice(end);
const plainArgs = (directive: Directive): boolean => directive.args.every((arg) => !arg.quoted && !arg.value.includes('$') && !arg.templated);

/** A directive nginx forbids in `context` (and knows: "not allowed here", not "unknown"). */
function misplacedFor(context: DirectiveContext): string | undefined {
  for (const line of ['alias /tmp/;', 'listen 127.0.0.1:8081;', 'worker_connections 512;']) {
    const name = line.slice(0, line.indexOf(' '));
    if (!directiveIn(name, context)) return line;
  }
  return undefined;
}

/** The name with its last letter doubled, or two letters swapped: a typo no module has. */
function misspelt(name: string): string | undefined {
  for (const candidate of [`${name}${name.at(-1)}`, name.slice(0, 2) + name[3] + name[2] + name.slice(4)]) {
    if (candidate !== name && directiveEntries(candidate).length === 0) return candidate;
  }
  return undefined;
}

/** Every structural mutation of one directive; the caller picks a few per kind across the corpus. */
export function structureMutationsOf(text: string, directive: Directive, top: DirectiveContext): StructureMutation[] {
  const out: StructureMutation[] = [];
  const context = contextOf(directive, top);
  const entry = directiveIn(directive.name, context);
  const at = (kind: StructureKind, start: number, end: number, by: string, what: string) =>
    out.push({ kind, text: replaceSpan(text, start, end, by), what: `${directive.name}: ${what}` });
  const { startOffset, endOffset } = directive.span;
  const lua = directive.name.endsWith('_by_lua_block');
  if (!entry || lua) return out;
  if (!directive.blockSpan) {
    const typo = misspelt(directive.name);
    if (typo) at('name', directive.nameSpan.startOffset, directive.nameSpan.endOffset, typo, `name -> ${typo}`);
    const misplaced = misplacedFor(context);
    if (misplaced) at('context', endOffset, endOffset, `\n${directive.indent}${misplaced}`, `${misplaced} added after it`);
    const first = directive.args[0];
    if (first && plainArgs(directive) && (entry.args === 'flag' || entry.args === '1')) {
      at('arity', first.span.endOffset, first.span.endOffset, ` ${first.value}`, `${first.value} given twice`);
    }
    if (first && plainArgs(directive) && text[endOffset - 1] === ';' && !entry.args.split('|').includes('0') && entry.args !== 'any') {
      at('arity', directive.nameSpan.endOffset, endOffset - 1, '', 'arguments removed');
    }
    // A `;` followed by more statements on later lines: nginx takes the next line's words as arguments. Not after
    // resolver, whose handler would look the next line's name up in DNS (the tests resolve no name).
    if (directive.name !== 'resolver' && text[endOffset - 1] === ';' && /\n\s*[a-z_]/.test(text.slice(endOffset, endOffset + 200))) {
      at('missing ;', endOffset - 1, endOffset, '', '";" removed');
    }
    if (first && !first.quoted) at('open quote', first.span.startOffset, first.span.startOffset, '"', `opening quote before ${first.value}`);
  }
  at('stray }', endOffset, endOffset, `\n${directive.indent}}`, '"}" added after it');
  if (directive.blockSpan && text[endOffset - 1] === '}') at('missing }', endOffset - 1, endOffset, '', 'its "}" removed');
  return out;
}

/** Every structural mutation of every directive of a parsed file, in file order. */
export function fileStructureMutations(text: string, directives: readonly Directive[], top: DirectiveContext): StructureMutation[] {
  const out: StructureMutation[] = [];
  for (const directive of all(directives)) for (const mutation of structureMutationsOf(text, directive, top)) out.push(mutation);
  return out;
}
