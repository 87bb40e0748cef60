// The model reads positions from its own line index and, for a tree without errors, infers node kinds from the text
// instead of asking tree-sitter (model/statements.ts). These tests hold the model to tree-sitter's own answers.
import type { Node } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import type { Span } from '../../server/src/util/types.js';
import { buildConfigFile } from '../../server/src/model/build.js';
import { LineIndex } from '../../server/src/model/line-index.js';
import type { Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { allDirectives } from './support.js';

function spanOf(node: Node): Span {
  return {
    start: { line: node.startPosition.row, column: node.startPosition.column },
    end: { line: node.endPosition.row, column: node.endPosition.column },
    startOffset: node.startIndex,
    endOffset: node.endIndex,
  };
}

/** Every directive node's spans, as tree-sitter's Node API gives them, in document order. */
function expectedDirectives(root: Node): unknown[] {
  return root.descendantsOfType('directive').map((node) => {
    const name = node!.childForFieldName('name');
    const body = node!.childForFieldName('body') ?? node!.childForFieldName('lua');
    return {
      span: spanOf(node!),
      nameSpan: spanOf(name ?? node!),
      args: node!.childrenForFieldName('argument').map((arg) => spanOf(arg!)),
      blockSpan: body ? spanOf(body) : undefined,
      condition: node!.childForFieldName('condition')?.text,
    };
  });
}

function actualDirectives(directives: readonly Directive[]): unknown[] {
  return allDirectives(directives).map((d) => ({
    span: d.span,
    nameSpan: d.nameSpan,
    args: d.args.map((arg) => arg.span),
    blockSpan: d.blockSpan,
    condition: d.condition,
  }));
}

// Comments between a directive's parts, a condition, a Lua block holding braces, names that are strings, variables
// and rendered templates, arguments starting with `(` and `{{`, a byte order mark, CRLF and a lone CR, tabs, text
// outside the Basic Multilingual Plane, and a string running over a line break.
const VALID =
  '\uFEFFhttp { # c\r\n' +
  '\tserver {\r\n' +
  '\t\tlisten 80 # after an argument\n ;\n' +
  '\t\tlocation ~ (a|b)$ { return 200 "😀 \r x"; }\n' +
  '\t\tif ($host ~ "^(a)$") { set $x "y\nz"; }\n' +
  '\t\tcontent_by_lua_block { ngx.say("}") -- }\n }\n' +
  '\t\t"quoted name" a \'b c\' ${v}w;\n' +
  '\t\t$geo_name source=$remote_addr;\n' +
  '\t\t{{ $.KEY }} {{ $.VALUE }};\n' +
  '\t\tproxy_pass http://{{ $.APP }}-{{ $.PORT }}/😀;\n' +
  '\t\tif ($a = {{ .B }}) { return 301; }\n' +
  '\t}\n' +
  '}\n';

describe('model positions agree with tree-sitter', () => {
  it('for every directive of a file without syntax errors', async () => {
    const parser = await loadNginxParser();
    const tree = parser.parse(VALID);
    try {
      expect(tree.rootNode.hasError).toBe(false);
      const file = buildConfigFile('/virtual/valid.conf', VALID, tree);
      const expected = expectedDirectives(tree.rootNode);
      expect(expected.length).toBeGreaterThan(10);
      expect(actualDirectives(file.directives)).toEqual(expected);
    } finally {
      tree.delete();
    }
  });

  it('for every directive of a file with syntax errors', async () => {
    const text = VALID.replace('listen 80', 'listen "80').replace('return 301;', 'return 301');
    const parser = await loadNginxParser();
    const tree = parser.parse(text);
    try {
      expect(tree.rootNode.hasError).toBe(true);
      const file = buildConfigFile('/virtual/broken.conf', text, tree);
      // The statements the model keeps: a list's directives, those inside its ERROR regions, and their blocks'.
      const kept: Node[] = [];
      const visit = (container: Node): void => {
        for (const child of container.namedChildren) {
          if (child!.type === 'directive') {
            kept.push(child!);
            const body = child!.childForFieldName('body');
            if (body?.type === 'block') visit(body);
          } else if (child!.isError) visit(child!);
        }
      };
      visit(tree.rootNode);
      const expected = kept.map((node) => expectedDirectives(node)[0]);
      expect(expected.length).toBeGreaterThan(3);
      expect(actualDirectives(file.directives)).toEqual(expected);
    } finally {
      tree.delete();
    }
  });

  it('line index positions equal the tree-sitter positions of every node', async () => {
    const parser = await loadNginxParser();
    const tree = parser.parse(VALID);
    const lines = new LineIndex(VALID);
    try {
      const cursor = tree.walk();
      let nodes = 0;
      for (;;) {
        const node = cursor.currentNode;
        expect(lines.span(node.startIndex, node.endIndex)).toEqual(spanOf(node));
        nodes++;
        if (cursor.gotoFirstChild()) continue;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) break;
        }
        if (cursor.currentDepth === 0) break;
      }
      cursor.delete();
      expect(nodes).toBeGreaterThan(100);
    } finally {
      tree.delete();
    }
  });
});
