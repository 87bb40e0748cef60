// The directives of one file, read from its tree in a single tree-cursor walk. (A plain file, without templates or
// Lua, is usually read from its text instead: text-reader.ts. This walk reads the rest.)
//
// Why a cursor: each web-tree-sitter Node access marshals the node into wasm and back, several times slower than
// stepping a cursor; positions come from a LineIndex instead of the tree for the same reason. Why a loop with an
// explicit stack of frames instead of recursion: a file nested ten thousand blocks deep must not overflow the stack.
//
// Every read from the cursor is a call into wasm, so a tree without errors (nearly every file) is read with fewer of
// them: there, a node's first character tells what it is (`#` a comment, `;` the end of a directive, a quote a
// string), a directive's first child is its name, and a block ends one past its closing `}`. Only a child starting
// with `{` or `(` (a block, a Lua block, a template action, an `if` condition or an argument) has its type asked.
// A tree with an ERROR or MISSING node anywhere is read the general way, by field names and node types.
import type { Tree, TreeCursor } from 'web-tree-sitter';
import { isTemplateActionType, readArgument, type TokenSource } from './arguments.js';
import { exactArray } from './exact-array.js';
import { interned } from './interned.js';
import { MAX_TEMPLATE_NESTING, readTemplateControl, TemplateScopeStack } from './template-guards.js';
import {
  CLOSE_BRACE,
  DOUBLE_QUOTE,
  HASH,
  OPEN_BRACE,
  OPEN_PAREN,
  opensTemplateAction,
  SEMICOLON,
  SINGLE_QUOTE,
} from './plain-tokens.js';
import { indentAt } from './line-index.js';
import { EMPTY_SPAN } from './span.js';
import { DirectiveNode, FileHome } from './directive-node.js';
import type { Argument, ConfigFile, Directive, TemplateDialect } from './types.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A node as far as it was read; `end` is -1 while a block's end is still to be found at its closing brace. */
interface Extent {
  type: string;
  start: number;
  end: number;
}

/** Statements of a source_file, block or ERROR node go to `out` (an ERROR's directives stay at the enclosing level). */
interface ListFrame {
  kind: 'list';
  out: Directive[];
  parent: Directive | undefined;
  /** The block this list is the inside of, when its end is read off its closing brace. */
  block?: Extent;
  closeEnd: number;
}

/** The children of one directive node: its name, arguments, condition and body. */
interface DirectiveFrame {
  kind: 'directive';
  directive: Directive;
  start: number;
  /** Known at the start in the general walk; else found at the `;` or the block that ends the directive. */
  end: number;
  named: boolean;
  body?: Extent;
  lua?: Extent;
  hasCondition: boolean;
}

type Frame = ListFrame | DirectiveFrame;

class StatementWalk {
  private readonly scopes = new TemplateScopeStack();
  private readonly fast: boolean;
  /** A template action was met (as a statement or in an argument): the file is a template. */
  sawTemplateAction = false;
  /** The file the statements belong to, shared by them (directive-node.ts). */
  private readonly home: FileHome;

  constructor(
    private readonly file: ConfigFile,
    private readonly cursor: TreeCursor,
    private readonly source: TokenSource,
    private readonly dialect: TemplateDialect,
  ) {
    this.fast = !source.hasErrors;
    this.home = new FileHome(file);
  }

  /** Walks the whole tree; the cursor starts at the root. */
  run(): Directive[] {
    const cursor = this.cursor;
    const top: Directive[] = [];
    const frames: Frame[] = [{ kind: 'list', out: top, parent: undefined, closeEnd: -1 }];
    if (!cursor.gotoFirstChild()) return top;
    for (;;) {
      const frame = frames[frames.length - 1]!;
      const inner = frame.kind === 'list' ? this.statement(frame) : this.directivePart(frame);
      if (inner) {
        if (cursor.gotoFirstChild()) {
          frames.push(inner);
          continue;
        }
        this.finish(inner);
      }
      while (!cursor.gotoNextSibling()) {
        cursor.gotoParent();
        this.finish(frames.pop()!);
        if (frames.length === 0) return top;
      }
    }
  }

  /** A child of a statement list; returns the frame for its children when they must be walked. */
  private statement(list: ListFrame): Frame | undefined {
    const cursor = this.cursor;
    if (this.fast) {
      const start = cursor.startIndex;
      const text = this.source.text;
      const first = text.charCodeAt(start);
      if (first === HASH) return undefined;
      if (first === CLOSE_BRACE) {
        list.closeEnd = start + 1;
        return undefined;
      }
      if (first !== OPEN_BRACE) return this.openDirective(list, start, -1);
      // `{{`, `{%` and `{#` open template actions (`{{` may also start a directive whose name is rendered).
      const type = opensTemplateAction(text, start) ? cursor.nodeType : '{';
      if (type === 'directive') return this.openDirective(list, start, -1);
      if (type === 'template_control') this.templateControl();
      else if (isTemplateActionType(type)) this.sawTemplateAction = true;
      return undefined;
    }
    const type = cursor.nodeType;
    if (type === 'directive') return this.openDirective(list, cursor.startIndex, cursor.endIndex);
    if (type === 'template_control') this.templateControl();
    else if (isTemplateActionType(type)) this.sawTemplateAction = true;
    else if (type === 'ERROR') return { kind: 'list', out: list.out, parent: list.parent, closeEnd: -1 };
    return undefined;
  }

  private openDirective(list: ListFrame, start: number, end: number): DirectiveFrame {
    const indent = indentAt(this.source.text, this.source.lines, start);
    const directive = new DirectiveNode('', EMPTY_SPAN, [], EMPTY_SPAN, undefined, [], undefined, list.parent, this.home, this.scopes.current(), indent);
    list.out.push(directive);
    return { kind: 'directive', directive, start, end, named: false, hasCondition: false };
  }

  /** What the cursor's child of a directive is; undefined for one that is no part of the model (`;`, a comment). */
  private partAt(frame: DirectiveFrame): { field: string; part: Extent } | undefined {
    const cursor = this.cursor;
    if (!this.fast) {
      const field = cursor.currentFieldName;
      return field ? { field, part: { type: cursor.nodeType, start: cursor.startIndex, end: -1 } } : undefined;
    }
    const text = this.source.text;
    if (!frame.named) {
      const first = text.charCodeAt(frame.start);
      const type = first === DOUBLE_QUOTE || first === SINGLE_QUOTE ? 'string' : 'name';
      return { field: 'name', part: { type, start: frame.start, end: -1 } };
    }
    const start = cursor.startIndex;
    const first = text.charCodeAt(start);
    if (first === HASH) return undefined;
    if (first === SEMICOLON) {
      frame.end = start + 1;
      return undefined;
    }
    if (first === OPEN_BRACE || first === OPEN_PAREN) {
      const type = cursor.nodeType;
      const field = type === 'block' ? 'body' : type === 'lua_block' ? 'lua' : type === 'condition' ? 'condition' : 'argument';
      return { field, part: { type, start, end: -1 } };
    }
    const type = first === DOUBLE_QUOTE || first === SINGLE_QUOTE ? 'string' : 'word';
    return { field: 'argument', part: { type, start, end: -1 } };
  }

  /** A child of a directive node. Only the first name, condition and body count, as childForFieldName would have it. */
  private directivePart(frame: DirectiveFrame): ListFrame | undefined {
    const found = this.partAt(frame);
    if (!found) return undefined;
    const { field, part } = found;
    const cursor = this.cursor;
    const { directive } = frame;
    const { text, lines } = this.source;
    if (field === 'argument') {
      part.end = cursor.endIndex;
      directive.args.push(this.argument(part));
    } else if (field === 'name' && !frame.named) {
      frame.named = true;
      part.end = cursor.endIndex;
      directive.nameSpan = lines.span(part.start, part.end);
      directive.name = interned(this.nameOf(part));
    } else if (field === 'condition' && !frame.hasCondition) {
      frame.hasCondition = true;
      directive.condition = text.slice(part.start, cursor.endIndex);
    } else if (field === 'body' && !frame.body) {
      frame.body = part;
      // The fast walk finds the block's end at its closing brace, one read fewer.
      const fastBlock = part.type === 'block' && this.fast;
      if (!fastBlock) part.end = cursor.endIndex;
      if (part.type === 'block') {
        return { kind: 'list', out: directive.children, parent: directive, block: fastBlock ? part : undefined, closeEnd: -1 };
      }
    } else if (field === 'lua' && !frame.lua) {
      part.end = cursor.endIndex;
      frame.lua = part;
    }
    return undefined;
  }

  /** A `directive_name` is its own text; a word or string name is read as nginx reads an argument. */
  private nameOf(part: Extent): string {
    const raw = this.source.text.slice(part.start, part.end);
    // In the fast walk the type is only known to be a string or not: an identifier is a directive_name (a word name
    // starts with `$` or `{{`, so it never is one), and anything else is a word.
    const type = part.type === 'name' ? (IDENTIFIER.test(raw) ? 'directive_name' : 'word') : part.type;
    return type === 'directive_name' ? raw : this.argument({ type, start: part.start, end: part.end }).value;
  }

  private argument(part: Extent): Argument {
    const argument = readArgument(this.cursor, part.type, part.start, part.end, this.source);
    if (argument.templated) this.sawTemplateAction = true;
    return argument;
  }

  private finish(frame: Frame): void {
    const lines = this.source.lines;
    if (frame.kind === 'list') {
      if (frame.block) frame.block.end = frame.closeEnd;
      return;
    }
    const { directive } = frame;
    directive.args = exactArray(directive.args);
    directive.children = exactArray(directive.children);
    const block = frame.body ?? frame.lua;
    // A block ends its directive; otherwise the fast walk met the `;`. Asking the cursor (it is on the directive now)
    // is the fallback for anything else.
    if (block && block.end < 0) block.end = this.cursor.endIndex;
    if (block) directive.blockSpan = lines.span(block.start, block.end);
    const end = frame.end >= 0 ? frame.end : block ? block.end : this.cursor.endIndex;
    directive.span = lines.span(frame.start, end);
    if (!frame.named) directive.nameSpan = lines.span(frame.start, end);
  }

  /** One problem at the first template block nested beyond MAX_TEMPLATE_NESTING, if any. */
  reportDeepTemplates(): void {
    const opener = this.scopes.tooDeep;
    if (!opener) return;
    const message = `template blocks nested more than ${MAX_TEMPLATE_NESTING} levels deep are not tracked (this one and any deeper)`;
    this.file.syntaxProblems.push({ message, span: opener.span });
  }

  private templateControl(): void {
    this.sawTemplateAction = true;
    const control = readTemplateControl(this.cursor, this.source.text, this.source.lines, this.dialect);
    if (!control) return;
    this.file.templateControls.push(control);
    this.scopes.apply(control);
  }
}

export interface Statements {
  directives: Directive[];
  /** True when the walk met a template action; false says nothing (one may sit where the walk does not look). */
  sawTemplateAction: boolean;
}

/** The file's top-level directives (with their blocks' statements); template controls go to file.templateControls. */
export function readStatements(file: ConfigFile, tree: Tree, source: TokenSource, dialect: TemplateDialect = 'go'): Statements {
  const cursor = tree.walk();
  try {
    const walk = new StatementWalk(file, cursor, source, dialect);
    const directives = walk.run();
    walk.reportDeepTemplates();
    return { directives, sawTemplateAction: walk.sawTemplateAction };
  } finally {
    cursor.delete();
  }
}
