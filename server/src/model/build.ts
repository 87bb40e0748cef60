// Builds the config model of one file from its tree. Rules read only this model, never tree-sitter nodes.
import type { Tree } from 'web-tree-sitter';
import { collectSyntaxProblems } from './syntax-problems.js';
import { findStructureProblems } from './structure-problems.js';
import { parseContextName } from './context.js';
import { LineIndex } from './line-index.js';
import { withLines } from './file-lines.js';
import { limitNesting, MAX_NESTING_DEPTH } from './nesting-limit.js';
import { EMPTY_SPAN } from './span.js';
import { TEMPLATE_OPENERS } from './plain-tokens.js';
import { readStatements } from './statements.js';
import { dialectByName, hasJinjaSyntax, templateDialectOf } from './template-dialect.js';
import { readPlainFile, type PlainReading } from './text-reader.js';
import { nginxFirstError, type NginxSyntaxError } from './nginx-first-error.js';
import type { ConfigFile, ContextName, SyntaxProblem } from './types.js';

const STATED_CONTEXT = /^#\s*nginx-keepalive:.*\bcontext\s*=\s*([a-z_]+)/;

/** The context stated in the file's leading comment block (blank lines allowed), if it names a known context. */
export function findStatedContext(text: string): ContextName | undefined {
  // Line by line rather than split(): only the leading comment block is read, however long the file.
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const trimmed = text.slice(start, end).trim();
    start = end + 1;
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) return undefined;
    const match = STATED_CONTEXT.exec(trimmed);
    if (match) return parseContextName(match[1]!);
  }
  return undefined;
}

export function detectEol(text: string): '\n' | '\r\n' {
  const newline = text.indexOf('\n');
  return newline > 0 && text[newline - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Template actions all open with `{{`, `{%` or `{#`, so a text without one has none. The statement walk usually meets
 * one (as a statement or in an argument); the whole tree is searched only when it did not.
 */
function containsTemplateAction(tree: Tree, text: string, sawTemplateAction: boolean): boolean {
  if (!TEMPLATE_OPENERS.some((opener) => text.includes(opener))) return false;
  if (sawTemplateAction) return true;
  return tree.rootNode.descendantsOfType(['template_control', 'template_expression', 'template_comment']).length > 0;
}

function newFile(path: string, text: string): ConfigFile {
  return {
    path,
    text,
    directives: [],
    templateControls: [],
    syntaxProblems: [],
    statedContext: findStatedContext(text),
    isTemplate: false,
    templateDialect: undefined,
    eol: detectEol(text),
  };
}

/**
 * Adds the problems found on the model (nesting, missing blocks, glued tokens) to the parser's, in text order, and
 * puts nginx's own first error in its place (model/nginx-first-error.ts): what the grammar made of the text after it
 * is a guess nginx never reads, so it is dropped. A template is not read by nginx as written: the grammar's alone,
 * also a file named as one (`.sigil`, `.j2`...) whose only action is cut short (then no complete action marks it).
 */
function addModelProblems(file: ConfigFile, lines: LineIndex, plain?: PlainReading): ConfigFile {
  // Blocks are cut only below MAX_NESTING_DEPTH levels: the text reader says how deep it read.
  const nesting = plain && plain.deepest < MAX_NESTING_DEPTH ? [] : limitNesting(file.directives);
  const problems = file.syntaxProblems.concat(nesting, findStructureProblems(file.directives));
  problems.sort((a, b) => a.span.startOffset - b.span.startOffset);
  const template = file.isTemplate || dialectByName(file.path) !== undefined;
  if (template) {
    file.syntaxProblems = problems;
  } else {
    // The plain reader found nginx's first error on its way; a text from the tree walk is tokenized again for it.
    const first = plain ? plain.nginx.firstError(file.text) : nginxFirstError(file.text);
    file.syntaxProblems = withNginxFirstError(problems, first, lines);
  }
  return file;
}

/** `problems` up to nginx's first error, which ends them: ours where it says the same on the same line, else nginx's. */
function withNginxFirstError(problems: SyntaxProblem[], first: NginxSyntaxError | undefined, lines: LineIndex): SyntaxProblem[] {
  if (!first) return problems;
  const span = lines.span(first.start, first.end);
  const before = problems.filter((problem) => problem.span.startOffset < first.start);
  const same = problems.find(
    (problem) => problem.span.start.line === span.start.line && (problem.message === first.message || problem.message.startsWith(`${first.message} (`)),
  );
  return [...before.filter((problem) => problem !== same), same ?? { message: first.message, span }];
}

/**
 * The model of a plain file, read from its text; undefined when the text reader declines it (only a tree can tell).
 * The reader accepts no text whose tree has an error (test/property/text-reader.test.ts), so the model is the one the
 * tree walk would build, with no syntax problem from the parser.
 */
function readPlainModel(path: string, text: string, lines: LineIndex): ConfigFile | undefined {
  const file = newFile(path, text);
  const reading = readPlainFile(file, { text, lines, hasErrors: false });
  if (!reading) return undefined;
  file.directives = reading.directives;
  return withLines(addModelProblems(file, lines, reading), lines);
}

/** The model of a parsed file by walking its tree: any file, plain or not, with errors or without. */
function walkTreeModel(path: string, text: string, tree: Tree, lines: LineIndex): ConfigFile {
  const file = newFile(path, text);
  file.syntaxProblems = collectSyntaxProblems(tree, text);
  const dialect = templateDialectOf(path, text);
  const statements = readStatements(file, tree, { text, lines, hasErrors: tree.rootNode.hasError }, dialect);
  file.directives = statements.directives;
  file.isTemplate = containsTemplateAction(tree, text, statements.sawTemplateAction);
  if (file.isTemplate) file.templateDialect = dialect;
  return withLines(addModelProblems(file, lines), lines);
}

/**
 * The model of a parsed file whose text nobody has offered the text reader yet (the language server, the fix
 * checker): read from the text when it is plain, which spares the tree walk's calls into wasm, else from the tree.
 * A tree with an error goes straight to the walk: the reader accepts no such text. The caller owns `tree` and may
 * delete it as soon as this returns: the model keeps no tree-sitter objects.
 */
export function buildConfigFile(path: string, text: string, tree: Tree): ConfigFile {
  const lines = new LineIndex(text);
  return (tree.rootNode.hasError ? undefined : readPlainModel(path, text, lines)) ?? walkTreeModel(path, text, tree, lines);
}

/**
 * The model of a parsed file whose text the reader has declined already (file-loader.ts parses only then). The
 * reader's answer depends on the text alone, never on the tree, so offering it the text again could never succeed:
 * this goes straight to the tree walk.
 */
export function buildTreeConfigFile(path: string, text: string, tree: Tree): ConfigFile {
  return walkTreeModel(path, text, tree, new LineIndex(text));
}

/** The model of a plain file from its text alone, with no parse at all; undefined when only a tree can tell. */
export function buildPlainConfigFile(path: string, text: string): ConfigFile | undefined {
  return readPlainModel(path, text, new LineIndex(text));
}

/** A file that could not be parsed (e.g. the parse timed out): no statements, one syntax problem. */
export function unparsedConfigFile(path: string, text: string, reason: string): ConfigFile {
  return {
    path,
    text,
    directives: [],
    templateControls: [],
    syntaxProblems: [{ message: reason, span: EMPTY_SPAN }],
    statedContext: findStatedContext(text),
    isTemplate: text.includes('{{') || hasJinjaSyntax(text),
    templateDialect: text.includes('{{') || hasJinjaSyntax(text) ? templateDialectOf(path, text) : undefined,
    eol: detectEol(text),
  };
}
