// Mistakes the grammar accepts but nginx's tokenizer and directive table reject, checked on the model (and a
// statement swallowed by the one before it for want of a `;`: swallowed-statements.ts).
import type { Span } from '../util/types.js';
import { BLOCK_DIRECTIVES } from './nginx-first-error.js';
import { SIMPLE_DIRECTIVES } from './simple-directives.js';
import { swallowedStatement } from './swallowed-statements.js';
import type { Argument, Directive, SyntaxProblem } from './types.js';

/** Bodies whose statements are table entries (`"http" "http";` in a map), not directives. */
const TABLE_BODIES = new Set(['map', 'geo', 'types', 'split_clients', 'charset_map', 'match']);

function isTableEntry(directive: Directive): boolean {
  for (let parent = directive.parent; parent; parent = parent.parent) {
    if (TABLE_BODIES.has(parent.name)) return true;
  }
  return false;
}

function missingBlock(directive: Directive): SyntaxProblem | undefined {
  if (directive.blockSpan || !BLOCK_DIRECTIVES.has(directive.name) || isTableEntry(directive)) return undefined;
  // `server 10.0.0.1:80;` is the upstream member directive; only an argument-less `server;` outside an upstream lacks
  // its block (in one, nginx takes it for the member given no address: invalid number of arguments).
  if (directive.name === 'server' && (directive.args.length > 0 || directive.parent?.name === 'upstream')) return undefined;
  if (directive.args.some((arg) => arg.templated)) return undefined;
  return { message: `directive "${directive.name}" has no opening "{"`, span: directive.nameSpan };
}

/**
 * A simple directive followed by `{`: `index {HTTP_INDEX_FILE};` is a block to nginx's tokenizer (a word cannot start
 * with `{`), and nginx stops there, on the brace's line. Everything after is read as that block, so the file seems to
 * end inside it; this is the mistake to show first.
 */
function notTerminated(directive: Directive): SyntaxProblem | undefined {
  if (!directive.blockSpan || !SIMPLE_DIRECTIVES.has(directive.name) || isTableEntry(directive)) return undefined;
  return { message: `directive "${directive.name}" is not terminated by ";"`, span: firstCharacter(directive.blockSpan) };
}

function firstCharacter(span: Span): Span {
  return {
    start: span.start,
    end: { line: span.start.line, column: span.start.column + 1 },
    startOffset: span.startOffset,
    endOffset: span.startOffset + 1,
  };
}

/** After a closing quote nginx wants white space, `;`, `{` or `)`: `"a"b` is an error, not two arguments. */
function gluedToQuote(directive: Directive): SyntaxProblem | undefined {
  const tokens: Array<Pick<Argument, 'raw' | 'span' | 'quoted'>> = directive.args;
  for (let i = 1; i < tokens.length; i++) {
    const previous = tokens[i - 1]!;
    const current = tokens[i]!;
    if (previous.quoted && previous.span.endOffset === current.span.startOffset) {
      return { message: `unexpected "${current.raw.charAt(0)}"`, span: firstCharacter(current.span) };
    }
  }
  return undefined;
}

export function findStructureProblems(directives: readonly Directive[]): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const visit = (list: readonly Directive[]) => {
    for (const directive of list) {
      const problem = missingBlock(directive) ?? notTerminated(directive) ?? gluedToQuote(directive) ?? swallowedStatement(directive);
      if (problem) problems.push(problem);
      visit(directive.children);
    }
  };
  visit(directives);
  return problems;
}
