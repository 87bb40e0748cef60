// Include graphs: an open file that another workspace file includes is analyzed in its includer's context, and a
// change to the includer (in the editor or on disk) re-publishes the included file's diagnostics.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

// nginx.conf sets proxy_http_version 1.0 and clears Connection at http level, then includes sites/*.conf.
const CASE = path.join(FIXTURES_DIR, 'proxy-http-version/invalid-included.d');
const MAIN = readFileSync(path.join(CASE, 'nginx.conf'), 'utf8');
const SITE = readFileSync(path.join(CASE, 'sites/app.conf'), 'utf8');
const codes = (diagnostics: Array<{ code?: unknown }>) => diagnostics.map((d) => String(d.code)).sort();

async function openSite() {
  const dir = tree({ 'nginx.conf': MAIN, 'sites/app.conf': SITE });
  const client = await LspClient.start({ workspace: dir });
  const site = client.open(path.join(dir, 'sites/app.conf'), SITE);
  const first = await client.diagnosticsFor(site.uri, site.version);
  return { dir, client, site, first, mainFile: path.join(dir, 'nginx.conf') };
}

describe('an open included file', () => {
  it("is analyzed in its includer's context: the includer's Connection header counts, its HTTP/1.0 too", async () => {
    const { first } = await openSite();
    // Alone, the site would also lack a cleared Connection header (connection-header-missing).
    expect(codes(first.diagnostics)).toEqual(['proxy-http-version']);
  });

  it('gets no diagnostics published for the closed includer', async () => {
    const { client, mainFile } = await openSite();
    expect(client.publications.some((p) => p.uri === uriOf(mainFile))).toBe(false);
  });

  it('is re-published when the includer changes on disk (workspace/didChangeWatchedFiles)', async () => {
    const { client, site, mainFile } = await openSite();
    writeFileSync(mainFile, MAIN.replace('proxy_http_version 1.0;', 'proxy_http_version 1.1;'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(mainFile), type: 2 }] });
    const after = await client.waitForDiagnostics(site.uri, (p) => p.diagnostics.length === 0);
    expect(after.version).toBe(site.version);
  });

  it('is re-published when the open includer is edited, unsaved', async () => {
    const { client, site, mainFile } = await openSite();
    const main = client.open(mainFile, MAIN);
    expect(codes((await client.diagnosticsFor(main.uri, main.version)).diagnostics)).toEqual([]);
    const line = MAIN.split('\n').findIndex((l) => l.includes('proxy_set_header Connection ""'));
    client.change(main.uri, [{ range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' }]);
    const after = await client.waitForDiagnostics(site.uri, (p) => codes(p.diagnostics).includes('connection-header-missing'));
    expect(codes(after.diagnostics)).toEqual(['connection-header-missing', 'proxy-http-version']);
  });

  it('follows a new include: edited into the includer, the site moves into its context', async () => {
    const dir = tree({ 'nginx.conf': MAIN.replace('include sites/*.conf;', ''), 'sites/app.conf': SITE });
    const client = await LspClient.start({ workspace: dir });
    const site = client.open(path.join(dir, 'sites/app.conf'), SITE);
    expect(codes((await client.diagnosticsFor(site.uri, site.version)).diagnostics)).toEqual([
      'connection-header-missing',
      'proxy-http-version',
    ]);
    const main = client.open(path.join(dir, 'nginx.conf'), MAIN.replace('include sites/*.conf;', ''));
    await client.diagnosticsFor(main.uri, main.version);
    client.change(main.uri, [{ text: MAIN }]);
    const after = await client.waitForDiagnostics(site.uri, (p) => codes(p.diagnostics).length === 1);
    expect(codes(after.diagnostics)).toEqual(['proxy-http-version']);
  });
});

describe('files created and deleted on disk', () => {
  it('a missing include is resolved once the file is created', async () => {
    const main = 'http {\n    include snippets/proxy.conf;\n}\n';
    const dir = tree({ 'nginx.conf': main });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf'), main);
    expect(codes((await client.diagnosticsFor(doc.uri, doc.version)).diagnostics)).toEqual(['include']);
    const snippet = path.join(dir, 'snippets/proxy.conf');
    mkdirSync(path.dirname(snippet), { recursive: true });
    writeFileSync(snippet, 'proxy_http_version 1.1;\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(snippet), type: 1 }] });
    const after = await client.waitForDiagnostics(doc.uri, (p) => p.diagnostics.length === 0);
    expect(after.diagnostics).toEqual([]);
  });
});
