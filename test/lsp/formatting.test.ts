// textDocument/formatting and rangeFormatting over a real stdio connection to the built server.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import { CLI, useTempTrees } from '../cli/helpers.js';
import { applyEdits, LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const MESSY = 'http {\nserver  {\n  listen   80 ;\n        location / {return 200;}\n  server_name   a   b;\n}\n}\n';
const SPACES = { tabSize: 4, insertSpaces: true };

async function open(files: Record<string, string>, name: string) {
  const dir = tree(files);
  const client = await LspClient.start({ workspace: dir });
  const doc = client.open(path.join(dir, name), files[name]!);
  return { dir, client, doc };
}

/** `format -` in an empty directory: no .editorconfig of this repository's may apply. */
function cliFormat(text: string, args: string[] = []): string {
  return execFileSync(process.execPath, [CLI, 'format', '-', ...args], { input: text, encoding: 'utf8', cwd: tree({}) });
}

describe('formatting over stdio', () => {
  it('advertises document and range formatting', async () => {
    const { client } = await open({ 'a.conf': MESSY }, 'a.conf');
    expect(client.initializeResult.capabilities.documentFormattingProvider).toBe(true);
    expect(client.initializeResult.capabilities.documentRangeFormattingProvider).toBe(true);
  });

  it('formats a document as `format -` does, honouring tabSize and insertSpaces', async () => {
    const { client, doc } = await open({ 'a.conf': MESSY }, 'a.conf');
    const spaces: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri: doc.uri }, options: SPACES });
    expect(applyEdits(MESSY, spaces)).toBe(cliFormat(MESSY));
    const twos: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', {
      textDocument: { uri: doc.uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(applyEdits(MESSY, twos)).toBe(cliFormat(MESSY, ['--indent-width', '2']));
    const tabs: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', {
      textDocument: { uri: doc.uri },
      options: { tabSize: 8, insertSpaces: false },
    });
    expect(applyEdits(MESSY, tabs)).toBe(cliFormat(MESSY, ['--indent-style', 'tab']));
  });

  it('lets the workspace\'s .editorconfig win over the editor\'s options', async () => {
    const { client, doc } = await open({ '.editorconfig': '[*.conf]\nindent_style = tab\n', 'a.conf': MESSY }, 'a.conf');
    const edits: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri: doc.uri }, options: SPACES });
    expect(applyEdits(MESSY, edits)).toBe(cliFormat(MESSY, ['--indent-style', 'tab']));
  });

  it('formats only the lines a range holds whole, every edit within the range', async () => {
    const { client, doc } = await open({ 'a.conf': MESSY }, 'a.conf');
    const rangeFormat = async (range: Range) => {
      const edits: TextEdit[] = await client.connection.sendRequest('textDocument/rangeFormatting', { textDocument: { uri: doc.uri }, range, options: SPACES });
      const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
      expect(edits.length).toBeGreaterThan(0);
      for (const edit of edits) expect(before(range.start, edit.range.start) && before(edit.range.end, range.end), JSON.stringify(edit)).toBe(true);
      return applyEdits(MESSY, edits);
    };
    // Lines 2 and 3 selected whole (to the start of line 4): those two, not the line break before line 2 nor line 4.
    expect(await rangeFormat({ start: { line: 2, character: 0 }, end: { line: 4, character: 0 } })).toBe(
      'http {\nserver  {\n        listen 80;\n        location / { return 200; }\n  server_name   a   b;\n}\n}\n',
    );
    // A range that cuts line 3 after three blanks leaves that line as it is.
    expect(await rangeFormat({ start: { line: 2, character: 0 }, end: { line: 3, character: 3 } })).toBe(
      'http {\nserver  {\n        listen 80;\n        location / {return 200;}\n  server_name   a   b;\n}\n}\n',
    );
  });

  // Not a failed request: vscode-languageclient would show only "Request textDocument/formatting failed.".
  it('answers no edits for a document with a syntax error, and shows a message saying where and why', async () => {
    const broken = 'http {\n    server {\n        listen 80\n    }\n}\n';
    const { client, doc } = await open({ 'broken.conf': broken }, 'broken.conf');
    const why = 'nginx-keepalive: not formatted: syntax error: unexpected "}" (line 3 lacks its ";") (line 4, column 5)';
    const whole: TextEdit[] = await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri: doc.uri }, options: SPACES });
    expect(whole).toEqual([]);
    const range: TextEdit[] = await client.connection.sendRequest('textDocument/rangeFormatting', {
      textDocument: { uri: doc.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
      options: SPACES,
    });
    expect(range).toEqual([]);
    // The notifications were sent before the answers, on the same stream, so they have arrived.
    expect(client.messages).toEqual([
      { type: 2, message: why },
      { type: 2, message: why },
    ]);
  });
});
