// Builds the config model of one file from its tree. Rules read only this model, never tree-sitter nodes.
import type { Node, Tree } from 'web-tree-sitter';
import { collectSyntaxProblems } from '../parser/syntax-problems.js';
import { findStructureProblems } from './structure-problems.js';
import { buildArgument } from './arguments.js';
import { parseContextName } from './context.js';
import { EMPTY_SPAN, spanOfNode } from './span.js';
import { readTemplateControl, TemplateScopeStack } from './template-guards.js';
import type { ConfigFile, ContextName, Directive } from './types.js';

const STATED_CONTEXT = /^#\s*nginx-keepalive:.*\bcontext\s*=\s*([a-z_]+)/;

/** The context stated in the file's leading comment block (blank lines allowed), if it names a known context. */
export function findStatedContext(text: string): ContextName | undefined {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
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

/** The leading white space of the line `offset` is on (a byte order mark is not part of the first line's indent). */
function indentAt(text: string, offset: number): string {
  const newlineAfter = text.lastIndexOf('\n', offset - 1) + 1;
  const lineStart = newlineAfter === 0 && text.startsWith('\uFEFF') ? 1 : newlineAfter;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

function directiveName(nameNode: Node, text: string): string {
  return nameNode.type === 'directive_name' ? nameNode.text : buildArgument(nameNode, text).value;
}

class FileBuilder {
  private readonly scopes = new TemplateScopeStack();

  constructor(private readonly file: ConfigFile) {}

  /** Statements of `container` (source_file or block). Directives inside an ERROR node are kept at this level. */
  statements(container: Node, parent: Directive | undefined): Directive[] {
    const directives: Directive[] = [];
    for (const child of container.namedChildren) {
      if (child.type === 'directive') directives.push(this.directive(child, parent));
      else if (child.type === 'template_control') this.templateControl(child);
      else if (child.isError) directives.push(...this.statements(child, parent));
    }
    return directives;
  }

  private templateControl(node: Node): void {
    const control = readTemplateControl(node);
    if (!control) return;
    this.file.templateControls.push(control);
    this.scopes.apply(control);
  }

  private directive(node: Node, parent: Directive | undefined): Directive {
    const text = this.file.text;
    const nameNode = node.childForFieldName('name');
    const body = node.childForFieldName('body') ?? node.childForFieldName('lua');
    const directive: Directive = {
      name: nameNode ? directiveName(nameNode, text) : '',
      nameSpan: spanOfNode(nameNode ?? node),
      args: node.childrenForFieldName('argument').map((arg) => buildArgument(arg, text)),
      span: spanOfNode(node),
      blockSpan: body ? spanOfNode(body) : undefined,
      children: [],
      condition: node.childForFieldName('condition')?.text,
      parent,
      file: this.file,
      guards: this.scopes.current(),
      indent: indentAt(text, node.startIndex),
    };
    if (body?.type === 'block') directive.children = this.statements(body, directive);
    return directive;
  }
}

function containsTemplateAction(root: Node): boolean {
  return root.descendantsOfType(['template_control', 'template_expression', 'template_comment']).length > 0;
}

/** The caller owns `tree` and may delete it as soon as this returns: the model keeps no tree-sitter objects. */
export function buildConfigFile(path: string, text: string, tree: Tree): ConfigFile {
  const file: ConfigFile = {
    path,
    text,
    directives: [],
    templateControls: [],
    syntaxProblems: collectSyntaxProblems(tree, text),
    statedContext: findStatedContext(text),
    isTemplate: containsTemplateAction(tree.rootNode),
    eol: detectEol(text),
  };
  file.directives = new FileBuilder(file).statements(tree.rootNode, undefined);
  file.syntaxProblems.push(...findStructureProblems(file.directives));
  file.syntaxProblems.sort((a, b) => a.span.startOffset - b.span.startOffset);
  return file;
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
    isTemplate: text.includes('{{'),
    eol: detectEol(text),
  };
}
