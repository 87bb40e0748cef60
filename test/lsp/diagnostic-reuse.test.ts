// An open document's diagnostics after a keystroke (lsp/diagnostic-reuse.ts): a finding moved from the previous
// analysis that lands on the same line and columns is sent as the same diagnostic object (whose JSON the message
// writer keeps, lsp/message-encoding.ts); any other gets a new one. Either way each diagnostic must be the one
// toDiagnostic() makes of the finding for the new text.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { docsUrl } from '../../server/src/engine/docs-url.js';
import { diagnosticsOf } from '../../server/src/lsp/diagnostic-reuse.js';
import { toDiagnostic } from '../../server/src/lsp/diagnostics.js';
import { encodeMessage } from '../../server/src/lsp/message-encoding.js';
import { resultIdOf } from '../../server/src/lsp/workspace-diagnostics.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import type { ModelCache } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { memoryHost } from '../property/support.js';

const FILE = path.join('/diagnostic-reuse', 'nginx.conf');
const TEXT = [
  'events {}',
  'http {',
  '    upstream app { server 127.0.0.1:3000; keepalive 16; }',
  '    server {',
  '        server_name example.com;',
  '        location / { proxy_pass http://app; }',
  '    }',
  '    server {',
  '        server_name other.example.com; location /b/ { proxy_pass http://app; }',
  '    }',
  // A directive nginx does not know, whose finding's JSON is not ASCII.
  '    grüße on;',
  '}',
  '',
].join('\n');

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

async function analyzed(document: OpenDocument, previous?: Awaited<ReturnType<typeof analyzeWorkspace>>) {
  const model = document.currentModel(parser);
  const text = document.text;
  const docs = [{ path: FILE, text }];
  const models: ModelCache = { get: (asked, askedText) => (asked === FILE && askedText === text ? model : undefined) };
  return analyzeWorkspace(docs, { host: memoryHost(docs), models }, undefined, previous);
}

/** Types `inserted` after the first `after` of the text, and analyzes again. */
async function typed(document: OpenDocument, previous: Awaited<ReturnType<typeof analyzeWorkspace>>, after: string, inserted: string) {
  const at = document.text.indexOf(after) + after.length;
  const position = document.textDocument.positionAt(at);
  document.applyChanges([{ range: { start: position, end: position }, text: inserted }], document.version + 1);
  return analyzed(document, previous);
}

describe('diagnostics after a keystroke', () => {
  it('are the same objects for findings moved onto the same place, new ones elsewhere, and each is toDiagnostic()', async () => {
    const document = new OpenDocument(`file://${FILE}`, FILE, 1, TEXT, () => 10_000_000);
    const first = await analyzed(document);
    const before = diagnosticsOf(document, first.findings);
    expect(before.length).toBeGreaterThanOrEqual(4);
    // In the second server's server_name, before its location on the same line: the findings there move right.
    const second = await typed(document, first, 'server_name other', 'x');
    expect(second.reused).toBe(true);
    const after = diagnosticsOf(document, second.findings);
    expect(after).toEqual(second.findings.map((finding) => toDiagnostic(finding, document.textDocument)));
    const kept = after.filter((diagnostic) => before.includes(diagnostic));
    const line8 = (list: typeof after) => list.filter((diagnostic) => diagnostic.range.start.line === 8);
    expect(line8(after).length).toBeGreaterThan(0);
    expect(kept).toEqual(after.filter((diagnostic) => diagnostic.range.start.line !== 8));
    expect(kept.length).toBeGreaterThan(0);
    expect(line8(after).every((diagnostic) => !before.includes(diagnostic))).toBe(true);
  });

  it('are written as JSON.stringify writes the whole message, kept or not', async () => {
    const document = new OpenDocument(`file://${FILE}`, FILE, 1, TEXT, () => 10_000_000);
    const first = await analyzed(document);
    diagnosticsOf(document, first.findings);
    const second = await typed(document, first, 'server_name other', 'é');
    const diagnostics = diagnosticsOf(document, second.findings);
    // Both kinds of kept JSON: ASCII (kept as the string) and not (kept as its UTF-8 bytes).
    const ascii = (diagnostic: unknown) => /^[\x00-\x7f]*$/.test(JSON.stringify(diagnostic));
    expect(diagnostics.some(ascii)).toBe(true);
    expect(diagnostics.some((diagnostic) => !ascii(diagnostic))).toBe(true);
    const uri = 'file:///a%00b/%E2%9C%93 "quoted".conf';
    const notification = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, version: 3, diagnostics } };
    const report = { jsonrpc: '2.0', id: 7, result: { kind: 'full', resultId: 'r1', items: diagnostics } };
    for (const message of [notification, report, { ...notification, params: { uri, diagnostics: diagnosticsOf(document, []) } }]) {
      expect(encodeMessage(message).equals(Buffer.from(JSON.stringify(message), 'utf8'))).toBe(true);
      // Twice: the second time from the kept JSON.
      expect(encodeMessage(message).toString('utf8')).toBe(JSON.stringify(message));
    }
    // A pulled version's resultId names the content: a plain copy (no ids kept for it) gets the same id, a copy with
    // one diagnostic changed another, and the reusable array's id is the same when asked again from the kept ids.
    const copy = JSON.parse(JSON.stringify(diagnostics)) as typeof diagnostics;
    expect(resultIdOf(copy)).toBe(resultIdOf(diagnostics));
    expect(resultIdOf(diagnostics)).toBe(resultIdOf(copy));
    expect(resultIdOf([...copy.slice(0, -1), { ...copy[copy.length - 1]!, message: 'other' }])).not.toBe(resultIdOf(diagnostics));
    expect(resultIdOf(copy.slice(1))).not.toBe(resultIdOf(diagnostics));
    expect(resultIdOf(diagnosticsOf(document, []))).toBe(resultIdOf([]));
    expect(notification.params.diagnostics).toBe(diagnostics);
    expect(report.result.items).toBe(diagnostics);
  });

  it("share one frozen link to their rule's page per rule", async () => {
    const document = new OpenDocument(`file://${FILE}`, FILE, 1, TEXT, () => 10_000_000);
    const diagnostics = diagnosticsOf(document, (await analyzed(document)).findings);
    const byRule = new Map<string, unknown>();
    for (const diagnostic of diagnostics) {
      const code = String(diagnostic.code);
      expect(diagnostic.codeDescription).toEqual({ href: docsUrl(code) });
      expect(Object.isFrozen(diagnostic.codeDescription)).toBe(true);
      if (byRule.has(code)) expect(diagnostic.codeDescription).toBe(byRule.get(code));
      byRule.set(code, diagnostic.codeDescription);
    }
    // Two of one rule at least (the proxy_pass of each server), and more than one rule.
    expect(byRule.size).toBeGreaterThan(1);
    expect(byRule.size).toBeLessThan(diagnostics.length);
  });
});
