// The formatter's view of a parsed file: its "atoms", the pieces of text it never changes (a directive name, a whole
// argument, a comment, a template action, a brace, a `;`, a Lua body), in text order, each with what the layout
// around it depends on. Everything between two atoms is white space, which is all the formatter rewrites.
//
// Arguments are atoms as a whole (a word with template actions glued in, a quoted string, an `if` condition), so
// quoting, escapes and template action text can never change; a `*_by_lua_block` body from its `{` to the end of the
// Lua code is one atom, kept byte for byte.
import type { Node, Tree, TreeCursor } from 'web-tree-sitter';

export type AtomKind = 'name' | 'argument' | 'semicolon' | 'open' | 'close' | 'comment' | 'template' | 'lua';

export interface Atom {
  start: number;
  end: number;
  kind: AtomKind;
  /** Opens a statement: a directive's name, or a comment or template action standing between statements. */
  startsStatement: boolean;
  /** Block nesting of the statement the atom belongs to (for `close`: of the directive whose block it closes). */
  depth: number;
  /** Index of the atom that opened this atom's statement (itself when it opens one). */
  statement: number;
  /** Inside a map-like body (`map`, `geo`, `types`...): the spacing within its lines is kept as written. */
  keepSpacing: boolean;
}

/**
 * Blocks whose entries are data, often aligned in columns by hand (`default  upgrade;`). nginx reads them with its
 * own tokenizer like any block, so re-indenting their lines is safe; the spacing inside a line is the author's.
 */
const KEEP_SPACING_BLOCKS: ReadonlySet<string> = new Set(['map', 'geo', 'types', 'split_clients', 'charset_map', 'match', 'geoip2']);

const TEMPLATE_NODES: ReadonlySet<string> = new Set(['template_control', 'template_expression', 'template_comment']);

class AtomCollector {
  readonly atoms: Atom[] = [];

  private add(start: number, end: number, kind: AtomKind, depth: number, statement: number, keepSpacing: boolean): void {
    const index = this.atoms.length;
    this.atoms.push({ start, end, kind, startsStatement: statement === -1, depth, statement: statement === -1 ? index : statement, keepSpacing });
  }

  /** The statements of a source_file or block; `cursor` is on that node and is left there. */
  statements(cursor: TreeCursor, depth: number, keepSpacing: boolean): void {
    if (!cursor.gotoFirstChild()) return;
    do {
      const type = cursor.nodeType;
      if (type === 'directive') this.directive(cursor, depth, keepSpacing);
      else if (type === 'comment') this.add(cursor.startIndex, cursor.endIndex, 'comment', depth, -1, keepSpacing);
      else if (TEMPLATE_NODES.has(type)) this.add(cursor.startIndex, cursor.endIndex, 'template', depth, -1, keepSpacing);
      else if (type === '{' || type === '}') continue; // the enclosing directive adds its own braces
      else throw new UnexpectedNodeError(type, cursor.startIndex);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  private directive(cursor: TreeCursor, depth: number, keepSpacing: boolean): void {
    const statement = this.atoms.length;
    const name = cursor.currentNode.childForFieldName('name');
    const bodyKeepsSpacing = name !== null && KEEP_SPACING_BLOCKS.has(name.text);
    cursor.gotoFirstChild();
    do {
      const type = cursor.nodeType;
      const owner = this.atoms.length === statement ? -1 : statement;
      if (cursor.currentFieldName === 'name') this.add(cursor.startIndex, cursor.endIndex, 'name', depth, -1, keepSpacing);
      else if (type === ';') this.add(cursor.startIndex, cursor.endIndex, 'semicolon', depth, owner, keepSpacing);
      else if (type === 'comment') this.add(cursor.startIndex, cursor.endIndex, 'comment', depth, owner, keepSpacing);
      else if (type === 'block') this.block(cursor, depth, statement, keepSpacing, bodyKeepsSpacing);
      else if (type === 'lua_block') this.luaBlock(cursor.currentNode, depth, statement, keepSpacing);
      else this.add(cursor.startIndex, cursor.endIndex, 'argument', depth, owner, keepSpacing);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  private block(cursor: TreeCursor, depth: number, statement: number, keepSpacing: boolean, bodyKeepsSpacing: boolean): void {
    const { startIndex, endIndex } = cursor;
    this.add(startIndex, startIndex + 1, 'open', depth, statement, keepSpacing);
    this.statements(cursor, depth + 1, bodyKeepsSpacing);
    this.add(endIndex - 1, endIndex, 'close', depth, statement, keepSpacing);
  }

  /** `{`, the Lua code, and the white space between them: one atom; the closing `}` is placed like any other. */
  private luaBlock(node: Node, depth: number, statement: number, keepSpacing: boolean): void {
    const code = node.namedChildren.find((child) => child?.type === 'lua_code');
    this.add(node.startIndex, code ? code.endIndex : node.startIndex + 1, 'lua', depth, statement, keepSpacing);
    this.add(node.endIndex - 1, node.endIndex, 'close', depth, statement, keepSpacing);
  }
}

/** A node the formatter does not know how to lay out: the file is left alone rather than guessed at. */
export class UnexpectedNodeError extends Error {
  constructor(
    readonly nodeType: string,
    readonly offset: number,
  ) {
    super(`unexpected ${nodeType} node at offset ${offset}`);
  }
}

/** The atoms of a tree without errors, in text order. */
export function collectAtoms(tree: Tree): Atom[] {
  const collector = new AtomCollector();
  const cursor = tree.walk();
  try {
    collector.statements(cursor, 0, false);
  } finally {
    cursor.delete();
  }
  return collector.atoms;
}
