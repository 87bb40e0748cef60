import { describe, expect, it } from 'vitest';
import {
  applyEdits,
  deleteDirectiveLine,
  detectIndentUnit,
  insertIntoBlock,
  insertLineAfter,
  insertLineBefore,
  replaceSpan,
} from '../../server/src/fixes/edits.js';
import type { TextEdit } from '../../server/src/util/types.js';
import type { ConfigFile } from '../../server/src/model/types.js';
import { findDirective, parseModel } from '../model/support.js';

/** Applies `edits` to `file` and checks the result still parses cleanly. */
async function applied(file: ConfigFile, ...edits: TextEdit[]): Promise<string> {
  const text = applyEdits(file.text, edits);
  expect((await parseModel(text, file.path)).syntaxProblems).toEqual([]);
  return text;
}

describe('detectIndentUnit', () => {
  it.each([
    ['two spaces', 'http {\n  server {\n    listen 80;\n  }\n}\n', '  '],
    ['four spaces', 'server {\n    location / {\n        return 200;\n    }\n}\n', '    '],
    ['tabs', 'server {\n\tlocation / {\n\t\treturn 200;\n\t}\n}\n', '\t'],
    ['nothing nested (default)', 'gzip on;\n', '    '],
    ['tab-indented top level only', '\tgzip on;\n', '\t'],
  ])('%s', async (_name, text, unit) => {
    expect(detectIndentUnit(await parseModel(text))).toBe(unit);
  });
});

describe('insertLineAfter / insertLineBefore', () => {
  it('adds a statement on its own line at the directive indent, after a trailing comment', async () => {
    const file = await parseModel('server {\n  location / {\n    proxy_pass http://app; # main\n  }\n}\n');
    const pass = findDirective(file, 'proxy_pass');
    expect(await applied(file, insertLineAfter(pass, 'proxy_http_version 1.1;'))).toBe(
      'server {\n  location / {\n    proxy_pass http://app; # main\n    proxy_http_version 1.1;\n  }\n}\n',
    );
    expect(await applied(file, insertLineBefore(pass, 'proxy_set_header Connection "";'))).toBe(
      'server {\n  location / {\n    proxy_set_header Connection "";\n    proxy_pass http://app; # main\n  }\n}\n',
    );
  });

  it('keeps CRLF line endings and indents every line of a multi-line insertion', async () => {
    const file = await parseModel('upstream app {\r\n\tserver a;\r\n}\r\n');
    const server = findDirective(file, 'server');
    expect(await applied(file, insertLineAfter(server, 'keepalive 16;\nkeepalive_timeout 60s;'))).toBe(
      'upstream app {\r\n\tserver a;\r\n\tkeepalive 16;\r\n\tkeepalive_timeout 60s;\r\n}\r\n',
    );
  });

  it('inserts inline when the directive shares its line, so the statement stays in its block', async () => {
    const file = await parseModel('location / { proxy_pass http://app; }\n');
    const pass = findDirective(file, 'proxy_pass');
    expect(await applied(file, insertLineAfter(pass, 'proxy_http_version 1.1;'))).toBe(
      'location / { proxy_pass http://app; proxy_http_version 1.1; }\n',
    );
    expect(await applied(file, insertLineBefore(pass, 'proxy_http_version 1.1;'))).toBe(
      'location / { proxy_http_version 1.1; proxy_pass http://app; }\n',
    );
  });

  it('uses the indent of the level for a directive that does not start its line', async () => {
    const file = await parseModel('upstream app {\n  server a;\n  {{ if $.K }}keepalive 4;\n  {{ end }}\n}\n');
    const keepalive = findDirective(file, 'keepalive');
    expect(applyEdits(file.text, [insertLineAfter(keepalive, 'keepalive_timeout 60s;')])).toBe(
      'upstream app {\n  server a;\n  {{ if $.K }}keepalive 4;\n  keepalive_timeout 60s;\n  {{ end }}\n}\n',
    );
  });
});

describe('insertIntoBlock', () => {
  it('adds a first or last statement one level in, using the existing children indent', async () => {
    const file = await parseModel('http {\n  upstream app {\n      server a;\n  }\n}\n');
    const upstream = findDirective(file, 'upstream');
    expect(await applied(file, insertIntoBlock(upstream, 'keepalive 16;', 'start'))).toBe(
      'http {\n  upstream app {\n      keepalive 16;\n      server a;\n  }\n}\n',
    );
    expect(await applied(file, insertIntoBlock(upstream, 'keepalive 16;', 'end'))).toBe(
      'http {\n  upstream app {\n      server a;\n      keepalive 16;\n  }\n}\n',
    );
  });

  it('indents one file unit deeper when the block is empty', async () => {
    const file = await parseModel('server {\n\tlocation / {\n\t\treturn 200;\n\t}\n\tlocation /api {\n\t}\n}\n');
    const api = findDirective(file, 'location', 1);
    expect(await applied(file, insertIntoBlock(api, 'proxy_pass http://app;', 'end'))).toBe(
      'server {\n\tlocation / {\n\t\treturn 200;\n\t}\n\tlocation /api {\n\t\tproxy_pass http://app;\n\t}\n}\n',
    );
  });

  it('inserts inline into one-line and empty blocks', async () => {
    const file = await parseModel('upstream a { server x; }\nupstream b {}\n');
    const [a, b] = file.directives;
    expect(await applied(file, insertIntoBlock(a!, 'keepalive 8;', 'end'))).toBe('upstream a { server x; keepalive 8; }\nupstream b {}\n');
    expect(await applied(file, insertIntoBlock(a!, 'keepalive 8;', 'start'))).toBe('upstream a { keepalive 8; server x; }\nupstream b {}\n');
    expect(applyEdits(file.text, [insertIntoBlock(b!, 'server y;', 'start')])).toBe('upstream a { server x; }\nupstream b { server y; }\n');
  });

  it('refuses a block that is not closed', async () => {
    const file = await parseModel('upstream a {\n  server x;\n');
    expect(() => insertIntoBlock(file.directives[0]!, 'keepalive 8;', 'end')).toThrow(/not closed/);
  });
});

describe('deleteDirectiveLine and replaceSpan', () => {
  it('removes a directive standing alone with its line and comment, keeping CRLF elsewhere', async () => {
    const file = await parseModel('location / {\r\n    proxy_set_header Connection close; # legacy\r\n    proxy_pass http://a;\r\n}\r\n');
    expect(await applied(file, deleteDirectiveLine(findDirective(file, 'proxy_set_header')))).toBe(
      'location / {\r\n    proxy_pass http://a;\r\n}\r\n',
    );
  });

  it('removes only the directive and its spacing when it shares the line', async () => {
    const file = await parseModel('location / { proxy_http_version 1.0; proxy_pass http://a; }\n');
    expect(await applied(file, deleteDirectiveLine(findDirective(file, 'proxy_http_version')))).toBe('location / { proxy_pass http://a; }\n');
    expect(await applied(file, deleteDirectiveLine(findDirective(file, 'proxy_pass')))).toBe('location / { proxy_http_version 1.0; }\n');
    const last = await parseModel('gzip on; sendfile on;');
    expect(applyEdits(last.text, [deleteDirectiveLine(findDirective(last, 'sendfile'))])).toBe('gzip on;');
  });

  it('replaces a span', async () => {
    const file = await parseModel('proxy_http_version 1.0;\n');
    const version = findDirective(file, 'proxy_http_version').args[0]!;
    const edit = replaceSpan(file, version.span, '1.1');
    expect(edit).toEqual({ file: file.path, startOffset: 19, endOffset: 22, newText: '1.1' });
    expect(await applied(file, edit)).toBe('proxy_http_version 1.1;\n');
  });
});

describe('applyEdits', () => {
  const at = (startOffset: number, endOffset: number, newText: string): TextEdit => ({ file: 'f', startOffset, endOffset, newText });

  it('applies edits in offset order whatever the given order', () => {
    expect(applyEdits('abcdef', [at(4, 5, 'E'), at(0, 1, 'A'), at(2, 2, '+')])).toBe('Ab+cdEf');
  });

  it('keeps equal-offset inserts in the given order, before a replacement starting there', () => {
    expect(applyEdits('abc', [at(1, 2, 'B'), at(1, 1, '1'), at(1, 1, '2'), at(2, 2, '3')])).toBe('a12B3c');
  });

  it('rejects overlapping edits, edits of several files and offsets outside the text', () => {
    expect(() => applyEdits('abcdef', [at(0, 3, 'x'), at(2, 4, 'y')])).toThrow(/overlapping/);
    expect(() => applyEdits('abcdef', [at(0, 4, 'x'), at(2, 2, 'y')])).toThrow(/overlapping/);
    expect(() => applyEdits('abc', [at(0, 1, 'x'), { ...at(2, 2, 'y'), file: 'g' }])).toThrow(/more than one file/);
    expect(() => applyEdits('abc', [at(2, 9, 'x')])).toThrow(RangeError);
  });

  it('never moves or replaces a byte order mark', async () => {
    const file = await parseModel('\uFEFFupstream app {\n  server a;\n}\n');
    const upstream = findDirective(file, 'upstream');
    expect(upstream.indent).toBe('');
    expect(applyEdits(file.text, [insertLineBefore(upstream, '# managed')])).toBe('\uFEFF# managed\nupstream app {\n  server a;\n}\n');
    expect(applyEdits('\uFEFFab', [at(0, 0, 'x'), at(0, 2, 'y')])).toBe('\uFEFFxyb');
  });
});
