// Whatever arrives on the wire, the server keeps serving: malformed JSON, unknown methods, positions outside the
// document, changes to documents never opened, failing commands, cancelled requests, huge documents. And documents
// closed give their tree-sitter trees back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, type CodeAction } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const PLAIN = readFileSync(path.join(REPO_ROOT, 'examples/plain/nginx.conf'), 'utf8');
interface Stats {
  openDocuments: number;
  liveTrees: number;
  rssBytes: number;
}

async function started(settings: Record<string, unknown> = {}) {
  const dir = tree({ 'nginx.conf': PLAIN });
  const client = await LspClient.start({ workspace: dir, settings });
  const doc = client.open(path.join(dir, 'nginx.conf'), PLAIN);
  const first = await client.diagnosticsFor(doc.uri, doc.version);
  return { dir, client, doc, first };
}

/** Proof the server still works: an edit is analyzed and published. */
async function stillServes(client: LspClient, uri: string): Promise<void> {
  const version = client.change(uri, [{ text: 'http { upstream x { server 127.0.0.1:1; } }\n' }]);
  const published = await client.diagnosticsFor(uri, version);
  expect(published.diagnostics.map((d) => d.code)).toEqual(['upstream-keepalive']);
}

describe('bad input', () => {
  it('survives a message whose body is not JSON', async () => {
    const { client, doc } = await started();
    const body = '{"jsonrpc":"2.0","method":';
    client.writeRaw(`Content-Length: ${body.length}\r\n\r\n${body}`);
    await stillServes(client, doc.uri);
    expect(client.process.exitCode).toBeNull();
  });

  it('answers an unknown method with MethodNotFound', async () => {
    const { client, doc } = await started();
    await expect(client.request('nginxKeepalive/noSuchThing', {})).rejects.toMatchObject({ code: -32601 });
    await stillServes(client, doc.uri);
  });

  it('clamps code action ranges outside the document (and reversed ones)', async () => {
    const { client, doc, first } = await started();
    const past = { line: 10_000, character: 10_000 };
    const reversed = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: { start: past, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    });
    // The clamped range is the whole document: every finding's fix is offered.
    const fixes = reversed.filter((action) => action.isPreferred).map((action) => action.diagnostics?.[0]?.code);
    expect(fixes.sort()).toEqual(first.diagnostics.map((d) => d.code).sort());
    const beyond = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: doc.uri },
      range: { start: past, end: past },
      context: { diagnostics: [], only: ['quickfix'] },
    });
    expect(beyond).toEqual([]);
  });

  it('ignores (and logs) a change to a document that was never opened', async () => {
    const { client, dir, doc } = await started();
    const stranger = uriOf(path.join(dir, 'never-opened.conf'));
    client.notify('textDocument/didChange', { textDocument: { uri: stranger, version: 2 }, contentChanges: [{ text: 'x' }] });
    await stillServes(client, doc.uri);
    expect(client.logs.some((log) => log.message.includes(stranger) && log.message.includes('not open'))).toBe(true);
    expect(client.publications.some((p) => p.uri === stranger)).toBe(false);
  });

  it('answers a failing command with an error, logs it, and carries on', async () => {
    const { client, doc } = await started();
    await expect(client.request('workspace/executeCommand', { command: 'no.such.command' })).rejects.toMatchObject({ code: -32603 });
    expect(client.logs.some((log) => log.type === 1 && log.message.includes('no.such.command'))).toBe(true);
    await stillServes(client, doc.uri);
  });

  it('honours a cancellation that arrives with the request', async () => {
    const { client, doc } = await started();
    const request = LspClient.frame({
      id: 'cancelled-1',
      method: 'textDocument/codeAction',
      params: { textDocument: { uri: doc.uri }, range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } }, context: { diagnostics: [] } },
    });
    const cancel = LspClient.frame({ method: '$/cancelRequest', params: { id: 'cancelled-1' } });
    const response = client.waitForRawResponse('cancelled-1');
    client.writeRaw(request + cancel); // one write: the server reads both before it handles the request
    expect((await response).error?.code).toBe(-32800);
    await stillServes(client, doc.uri);
  });
});

describe('a client that refuses registrations', () => {
  it('still reads its settings before the first analysis (eglot 1.9 refuses the file watcher registration)', async () => {
    const text = 'http {\n  server {\n    listen 80;\n    http2 on;\n  }\n}\n';
    const dir = tree({ 'site.conf': text });
    const client = await LspClient.start({ workspace: dir, settings: { nginxVersion: '1.24.0' }, refuseRegistrations: true });
    const doc = client.open(path.join(dir, 'site.conf'), text);
    const first = await client.diagnosticsFor(doc.uri, doc.version);
    // `http2` is from nginx 1.25.1: only the 1.24.0 the settings name makes it a finding.
    expect(first.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`)).toEqual(['directive@4']);
    expect(client.logs.some((log) => log.message.includes('registering file watchers failed (continuing without it)'))).toBe(true);
  });
});

describe('huge documents', () => {
  it('get one information diagnostic instead of being parsed (default limit: 10 MB)', async () => {
    const { client, dir } = await started();
    const huge = `# ${'x'.repeat(100)}\n`.repeat(110_000); // about 11 MB
    const doc = client.open(path.join(dir, 'huge.conf'), huge);
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(published.diagnostics).toHaveLength(1);
    expect(published.diagnostics[0]).toMatchObject({ code: 'file-too-large', severity: DiagnosticSeverity.Information });
    expect(published.diagnostics[0]!.message).toContain('too large');
    const stats = await client.request<Stats>('nginxKeepalive/stats');
    // Neither has a tree: the plain nginx.conf is read from its text, the huge one is not read at all.
    expect(stats).toMatchObject({ openDocuments: 2, liveTrees: 0 });
  });

  it('use the maxFileSize setting, and are analyzed again once they shrink below it', async () => {
    const { client, dir } = await started({ maxFileSize: 200 });
    const big = `${'# filler\n'.repeat(30)}http { upstream x { server 127.0.0.1:1; } }\n`;
    const doc = client.open(path.join(dir, 'big.conf'), big);
    expect((await client.diagnosticsFor(doc.uri, doc.version)).diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
    const version = client.change(doc.uri, [{ text: 'http { upstream x { server 127.0.0.1:1; } }\n' }]);
    expect((await client.diagnosticsFor(doc.uri, version)).diagnostics.map((d) => d.code)).toEqual(['upstream-keepalive']);
  });

  it('read maxFileSize in the settings file\'s forms too ("1K")', async () => {
    const { client, dir } = await started({ maxFileSize: '1K' });
    const big = `${'# filler\n'.repeat(120)}http { upstream x { server 127.0.0.1:1; } }\n`;
    const doc = client.open(path.join(dir, 'big.conf'), big);
    expect((await client.diagnosticsFor(doc.uri, doc.version)).diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
  });
});

describe('resources', () => {
  it('frees every tree once the documents are closed', async () => {
    const dir = tree({});
    const client = await LspClient.start({ workspace: dir });
    const baseline = await client.request<Stats>('nginxKeepalive/stats');
    expect(baseline).toMatchObject({ openDocuments: 0, liveTrees: 0 });
    expect(baseline.rssBytes).toBeGreaterThan(0);
    // Templates: a plain document keeps no tree (its model is read from the text), so only these have one.
    const template = `{{ range .APPS }}\n${PLAIN}{{ end }}\n`;
    const docs = ['a.conf', 'b.conf', 'c.conf'].map((name) => client.open(path.join(dir, name), template));
    await Promise.all(docs.map((doc) => client.diagnosticsFor(doc.uri, doc.version)));
    // Edited too, so old trees are replaced (and must be freed) along the way.
    for (const doc of docs) client.change(doc.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# x\n' }]);
    await Promise.all(docs.map((doc) => client.diagnosticsFor(doc.uri, 2)));
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ openDocuments: 3, liveTrees: 3 });
    for (const doc of docs) client.close(doc.uri);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ openDocuments: 0, liveTrees: 0 });
  });

  it('ends the process with exit code 0 after shutdown and exit', async () => {
    const { client } = await started();
    expect(await client.stop()).toBe(0);
  });
});
