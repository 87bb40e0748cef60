// The open document's incremental re-parse, in process: after any sequence of edits (CRLF, lone CR, non-BMP text,
// multi-line, out-of-range positions) its model must be the model a fresh parse of the same text builds, spans
// (offsets, lines, columns) included. A wrong tree-sitter edit shows up here as a shifted span.
import { beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { OpenDocument, liveTreeCount } from '../../server/src/lsp/open-document.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

/** What rules read of a model, without its parent links. */
function shape(file: ConfigFile) {
  const directive = (d: Directive): unknown => [d.name, d.span, d.args.map((a) => [a.value, a.span]), d.children.map(directive)];
  return { directives: file.directives.map(directive), syntax: file.syntaxProblems, controls: file.templateControls.length };
}

function random(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % limit;
  };
}

const BASE = 'http {\n    upstream app {\n        server 127.0.0.1:3000;\n    }\n    server {\n        location / {\n            proxy_pass http://app;\n        }\n    }\n}\n';
const PIECES = ['\n', '\r\n', '\r', ';', '{', '}', 'keepalive 16;\n', '# 😀 é\n', 'x', '  ', 'location /a/ { proxy_pass http://app; }\n', '"q"'];
/** Whole statements and line breaks, inserted between lines: the file mostly stays valid, so old trees are reused. */
const LINES = ['keepalive 16;\n', '# 😀 é\r\n', '\n', '\r\n', 'location /a/ {\n    proxy_pass http://app;\n}\n', '# a\rb\n', 'set $x "😀";\n'];

/** Anywhere, anything: breaks the syntax often. */
function randomChange(document: TextDocument, next: (limit: number) => number): TextDocumentContentChangeEvent {
  const length = document.getText().length;
  const start = next(length + 1);
  const end = Math.min(length, start + next(3) * next(20));
  const text = next(4) === 0 ? '' : PIECES[next(PIECES.length)]!;
  if (next(25) === 0) return { range: { start: { line: 500, character: 3 }, end: { line: 500, character: 1 } }, text };
  if (next(25) === 0) return { range: { start: { line: 0, character: 999 }, end: { line: 0, character: 999 } }, text };
  return { range: { start: document.positionAt(start), end: document.positionAt(end) }, text };
}

/** At line starts: insert a statement, delete a comment line, or edit inside a comment. */
function lineChange(document: TextDocument, next: (limit: number) => number): TextDocumentContentChangeEvent {
  const lines = document.lineCount;
  const line = next(lines);
  const lineText = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  if (lineText.trimStart().startsWith('#') && next(2) === 0) {
    return { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' };
  }
  if (lineText.trimStart().startsWith('#')) {
    const at = { line, character: 1 + next(Math.max(1, lineText.trimEnd().length - 1)) };
    return { range: { start: at, end: at }, text: ['x', '😀', '\r', ''][next(4)]! };
  }
  return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: LINES[next(LINES.length)]! };
}

describe('OpenDocument', () => {
  const runs = [1, 2, 3].flatMap((seed) => [
    { seed, kind: 'anywhere', change: randomChange },
    { seed, kind: 'between lines', change: lineChange },
  ]);
  for (const { seed, kind, change } of runs) {
    it(`re-parses incrementally to the model of a fresh parse (edits ${kind}, seed ${seed})`, () => {
      const next = random(seed);
      const document = new OpenDocument('file:///w/nginx.conf', '/w/nginx.conf', 1, BASE, () => 1_000_000);
      const mirror = TextDocument.create('file:///w/nginx.conf', 'nginx', 1, BASE);
      document.currentModel(parser);
      for (let version = 2; version < 150; version++) {
        const changes = [change(mirror, next)];
        TextDocument.update(mirror, changes, version);
        document.applyChanges(changes, version);
        expect(document.text).toBe(mirror.getText());
        // Sometimes several edits pile up on the tree before it is re-parsed.
        if (next(3) === 0) continue;
        expect(shape(document.currentModel(parser))).toEqual(shape(parseFile(parser, '/w/nginx.conf', document.text)));
      }
      document.dispose();
    });
  }

  it('keeps no tree for a plain document: its model is read from the text', () => {
    const before = liveTreeCount();
    const document = new OpenDocument('file:///w/a.conf', '/w/a.conf', 1, BASE, () => 1_000_000);
    document.currentModel(parser);
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# x\n' }], 2);
    document.currentModel(parser);
    expect(liveTreeCount()).toBe(before);
    // Once it needs the parser (a template action), it keeps one tree to re-parse incrementally; plain again, none.
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '{{ if .X }}{{ end }}\n' }], 3);
    expect(document.currentModel(parser).isTemplate).toBe(true);
    expect(liveTreeCount()).toBe(before + 1);
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }], 4);
    expect(document.currentModel(parser).isTemplate).toBe(false);
    expect(liveTreeCount()).toBe(before);
    document.dispose();
  });

  it('keeps one tree while a template is open and frees it on dispose', () => {
    const before = liveTreeCount();
    const document = new OpenDocument('file:///w/a.conf', '/w/a.conf', 1, `{{ if .X }}\n${BASE}{{ end }}\n`, () => 1_000_000);
    document.currentModel(parser);
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# x\n' }], 2);
    document.currentModel(parser);
    expect(liveTreeCount()).toBe(before + 1);
    document.dispose();
    expect(liveTreeCount()).toBe(before);
  });

  it('does not parse a document over the size limit, and drops its tree when it grows past it', () => {
    const before = liveTreeCount();
    const document = new OpenDocument('file:///w/big.conf', '/w/big.conf', 1, BASE, () => BASE.length + 10);
    expect(document.currentModel(parser).directives).not.toEqual([]);
    document.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# '.repeat(20) }], 2);
    expect(document.isTooLarge).toBe(true);
    expect(liveTreeCount()).toBe(before);
    const model = document.currentModel(parser);
    expect(model.directives).toEqual([]);
    expect(model.syntaxProblems[0]?.message).toContain('too large');
    document.dispose();
  });
});

describe('the model under a changed maxFileSize', () => {
  it('is built afresh when the limit moves across the text length, either way', () => {
    let limit = 20;
    const document = new OpenDocument('file:///w/a.conf', '/w/a.conf', 1, BASE, () => limit);
    try {
      const tooLarge = (model: ConfigFile) => model.syntaxProblems.some((problem) => problem.message.includes('too large'));
      expect(tooLarge(document.currentModel(parser))).toBe(true);
      limit = 10_000;
      expect(shape(document.currentModel(parser))).toEqual(shape(parseFile(parser, '/w/a.conf', BASE)));
      limit = 20;
      expect(tooLarge(document.currentModel(parser))).toBe(true);
    } finally {
      document.dispose();
    }
  });
});
