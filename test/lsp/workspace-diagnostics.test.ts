// Workspace diagnostics (issue 14, setting nginxKeepalive.diagnostics): every nginx file of the workspace gets its
// problems, open or not. A client that pulls (textDocument.diagnostic) asks with workspace/diagnostic and is answered
// "unchanged" for files whose diagnostics did not change, which are not analyzed again (counted by
// nginxKeepalive/stats); a client that does not pull is sent publishDiagnostics.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import type {
  DocumentDiagnosticReport,
  WorkspaceDiagnosticReport,
  WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { WORKSPACE_DIAGNOSTICS_MAX_FILES } from '../../server/src/lsp/editor-settings.js';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const SITE =
  'upstream app {\n  server 127.0.0.1:8080;\n}\nserver {\n  listen 80;\n  location / {\n    proxy_pass http://app;\n  }\n}\n';
const FIXED =
  'upstream app {\n  server 127.0.0.1:8080;\n  keepalive 16;\n}\nserver {\n  listen 80;\n  location / {\n' +
  '    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n    proxy_pass http://app;\n  }\n}\n';
const read = (relative: string) => readFileSync(path.join(FIXTURES_DIR, relative), 'utf8');
const INCLUDED_CASE = 'connection-header-passthrough/invalid-site-included.d';

/** a.conf and b.conf need fixing, clean.conf does not; main/ is an nginx.conf including main/sites/app.conf. */
function workspace(): string {
  return tree({
    'a.conf': SITE,
    'b.conf': SITE,
    'clean.conf': FIXED,
    'main/nginx.conf': read(`${INCLUDED_CASE}/nginx.conf`),
    'main/sites/app.conf': read(`${INCLUDED_CASE}/sites/app.conf`),
  });
}

const stats = (client: LspClient) => client.request<{ workspaceAnalyses: number }>('nginxKeepalive/stats');
function pullWorkspace(client: LspClient, previous: Map<string, string> = new Map(), cancel?: CancellationTokenSource) {
  const params = { previousResultIds: [...previous].map(([uri, value]) => ({ uri, value })) };
  const answer = cancel
    ? client.connection.sendRequest('workspace/diagnostic', params, cancel.token)
    : client.connection.sendRequest('workspace/diagnostic', params);
  return answer as Promise<WorkspaceDiagnosticReport>;
}
const byUri = (report: WorkspaceDiagnosticReport) => new Map(report.items.map((item) => [item.uri, item] as const));
const resultIds = (report: WorkspaceDiagnosticReport) => new Map(report.items.map((item) => [item.uri, item.resultId!] as const));
const codes = (item: WorkspaceDocumentDiagnosticReport | undefined) =>
  item?.kind === 'full' ? item.items.map((diagnostic) => String(diagnostic.code)).sort() : undefined;
const changedOnDisk = (client: LspClient, file: string, text: string) => {
  writeFileSync(file, text);
  client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file), type: 2 }] });
};

describe('pull diagnostics (a client with textDocument.diagnostic)', () => {
  it('are announced, with workspace diagnostics', async () => {
    const client = await LspClient.start({ workspace: workspace(), pullDiagnostics: true });
    expect(client.initializeResult.capabilities.diagnosticProvider).toEqual({ interFileDependencies: true, workspaceDiagnostics: true });
    const pushOnly = await LspClient.start({ workspace: workspace() });
    expect(pushOnly.initializeResult.capabilities.diagnosticProvider).toBeUndefined();
  });

  it('report every unopened nginx file, and then only what changed, re-analysing only when something changed', async () => {
    const dir = workspace();
    const client = await LspClient.start({ workspace: dir, pullDiagnostics: true });
    const first = await pullWorkspace(client);
    const items = byUri(first);
    expect([...items.keys()].sort()).toEqual(
      ['a.conf', 'b.conf', 'clean.conf', 'main/nginx.conf', 'main/sites/app.conf'].map((file) => uriOf(path.join(dir, file))).sort(),
    );
    expect(codes(items.get(uriOf(path.join(dir, 'a.conf'))))).toContain('upstream-keepalive');
    expect(codes(items.get(uriOf(path.join(dir, 'clean.conf'))))).toEqual([]);
    // The included site is judged in its includer's context: its passthrough is reported there.
    expect(codes(items.get(uriOf(path.join(dir, 'main/sites/app.conf'))))).toContain('connection-header-passthrough');
    // One unit: the folder, analyzed as `check .` in it analyzes it (lsp/analysis-units.ts).
    expect((await stats(client)).workspaceAnalyses).toBe(1);

    changedOnDisk(client, path.join(dir, 'b.conf'), FIXED);
    const second = await pullWorkspace(client, resultIds(first));
    const kinds = Object.fromEntries(second.items.map((item) => [path.relative(dir, new URL(item.uri).pathname), item.kind]));
    expect(kinds).toEqual({ 'a.conf': 'unchanged', 'b.conf': 'full', 'clean.conf': 'unchanged', 'main/nginx.conf': 'unchanged', 'main/sites/app.conf': 'unchanged' });
    expect(codes(byUri(second).get(uriOf(path.join(dir, 'b.conf'))))).toEqual([]);
    expect((await stats(client)).workspaceAnalyses).toBe(2);

    // An included file changed: its includer's unit is analyzed again, and the included file's problems follow.
    changedOnDisk(client, path.join(dir, 'main/sites/app.conf'), read(`${INCLUDED_CASE}/sites/app.fixed.conf`));
    const third = await pullWorkspace(client, resultIds(second));
    expect(codes(byUri(third).get(uriOf(path.join(dir, 'main/sites/app.conf'))))).not.toContain('connection-header-passthrough');
    expect((await stats(client)).workspaceAnalyses).toBe(3);
  });

  it('hold a request with nothing new until something changes, and honour its cancellation', async () => {
    const dir = workspace();
    const client = await LspClient.start({ workspace: dir, pullDiagnostics: true });
    const first = await pullWorkspace(client);
    let answered = false;
    const held = pullWorkspace(client, resultIds(first)).then((report) => ((answered = true), report));
    // The server answers requests in order: once stats is answered, the held request has been computed and is waiting.
    await stats(client);
    expect(answered).toBe(false);
    changedOnDisk(client, path.join(dir, 'a.conf'), FIXED);
    const report = await held;
    expect(report.items.filter((item) => item.kind === 'full').map((item) => item.uri)).toEqual([uriOf(path.join(dir, 'a.conf'))]);

    const cancel = new CancellationTokenSource();
    const cancelled = pullWorkspace(client, resultIds(report), cancel);
    await stats(client);
    cancel.cancel();
    await expect(cancelled).rejects.toMatchObject({ code: -32800 });
  });

  it('answer an open document with its unsaved text, "unchanged" when asked again, and leave it out of the workspace report', async () => {
    const dir = workspace();
    const client = await LspClient.start({ workspace: dir, pullDiagnostics: true });
    const doc = client.open(path.join(dir, 'clean.conf'), SITE);
    const report = await client.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
    expect(report.kind).toBe('full');
    expect(report.kind === 'full' && report.items.map((d) => d.code)).toContain('upstream-keepalive');
    const again = await client.request<DocumentDiagnosticReport>('textDocument/diagnostic', {
      textDocument: { uri: doc.uri },
      previousResultId: report.resultId,
    });
    expect(again).toEqual({ kind: 'unchanged', resultId: report.resultId });
    expect(byUri(await pullWorkspace(client)).has(doc.uri)).toBe(false);
    // Open documents are not pushed to a client that pulls.
    expect(client.publications).toEqual([]);
  });

  it('asks the client to pull again when an open document changes because of a file on disk', async () => {
    // nginx.conf sets proxy_http_version 1.0 at http level and includes sites/app.conf, which inherits it.
    const main = read('proxy-http-version/invalid-included.d/nginx.conf');
    const dir = tree({ 'nginx.conf': main, 'sites/app.conf': read('proxy-http-version/invalid-included.d/sites/app.conf') });
    const client = await LspClient.start({ workspace: dir, pullDiagnostics: true });
    const site = client.open(path.join(dir, 'sites/app.conf'), read('proxy-http-version/invalid-included.d/sites/app.conf'));
    const first = await client.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: site.uri } });
    expect(first.kind === 'full' && first.items.map((d) => d.code)).toEqual(['proxy-http-version']);
    const refreshed = new Promise<void>((resolve) =>
      client.connection.onRequest('workspace/diagnostic/refresh', () => {
        resolve();
        return null;
      }),
    );
    changedOnDisk(client, path.join(dir, 'nginx.conf'), main.replace('proxy_http_version 1.0;', 'proxy_http_version 1.1;'));
    await refreshed;
    const second = await client.request<DocumentDiagnosticReport>('textDocument/diagnostic', {
      textDocument: { uri: site.uri },
      previousResultId: first.resultId,
    });
    expect(second).toMatchObject({ kind: 'full', items: [] });
  });
});

describe('push diagnostics (a client without pull)', () => {
  it('are published for unopened files after the scan, and kept when a document closes', async () => {
    const dir = workspace();
    const client = await LspClient.start({ workspace: dir });
    const aUri = uriOf(path.join(dir, 'a.conf'));
    const published = await client.waitForDiagnostics(aUri, (params) => params.diagnostics.length > 0);
    expect(published.version).toBeUndefined();
    expect(published.diagnostics.map((d) => d.code)).toContain('upstream-keepalive');

    const doc = client.open(path.join(dir, 'a.conf'), FIXED);
    expect((await client.diagnosticsFor(doc.uri, doc.version)).diagnostics).toEqual([]);
    const count = client.publications.length;
    client.close(doc.uri);
    // Back to its text on disk, unversioned, never cleared in between.
    const after = await client.waitForDiagnostics(aUri, (params) => params.version === undefined && params.diagnostics.length > 0);
    expect(after.diagnostics.map((d) => d.code)).toContain('upstream-keepalive');
    expect(client.publications.slice(count).filter((p) => p.uri === aUri && p.diagnostics.length === 0)).toEqual([]);
  });

  it('follow changes on disk, and are cleared when the folder is set to open files only', async () => {
    const dir = workspace();
    const client = await LspClient.start({ workspace: dir });
    const bUri = uriOf(path.join(dir, 'b.conf'));
    await client.waitForDiagnostics(bUri, (params) => params.diagnostics.length > 0);
    changedOnDisk(client, path.join(dir, 'b.conf'), FIXED);
    await client.waitForDiagnostics(bUri, (params) => params.diagnostics.length === 0);

    const aUri = uriOf(path.join(dir, 'a.conf'));
    await client.waitForDiagnostics(aUri, (params) => params.diagnostics.length > 0);
    client.setSettings({ diagnostics: 'openFiles' });
    await client.waitForDiagnostics(aUri, (params) => params.diagnostics.length === 0);
  });
});

describe('the bound', () => {
  it(`turns workspace diagnostics off past ${WORKSPACE_DIAGNOSTICS_MAX_FILES} nginx files, says so, and still checks open files`, async () => {
    const files = Object.fromEntries(
      Array.from({ length: WORKSPACE_DIAGNOSTICS_MAX_FILES + 1 }, (_, index) => [`sites/site${index}.conf`, SITE] as const),
    );
    const dir = tree(files);
    const client = await LspClient.start({ workspace: dir, pullDiagnostics: true });
    const cancel = new CancellationTokenSource();
    const held = pullWorkspace(client, new Map(), cancel);
    await expect.poll(() => client.logs.map((log) => log.message).join('\n')).toContain(
      `workspace diagnostics are off (${WORKSPACE_DIAGNOSTICS_MAX_FILES + 1} nginx files, over the bound of ${WORKSPACE_DIAGNOSTICS_MAX_FILES})`,
    );
    // Nothing to report: the request is held (no file gets workspace diagnostics) until cancelled.
    cancel.cancel();
    await expect(held).rejects.toMatchObject({ code: -32800 });
    expect((await stats(client)).workspaceAnalyses).toBe(0);
    const doc = client.open(path.join(dir, 'sites/site0.conf'), SITE);
    const report = await client.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
    expect(report.kind === 'full' && report.items.map((d) => d.code)).toContain('upstream-keepalive');
  });
});
