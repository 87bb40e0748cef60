// Diagnostics over a real stdio connection: what is published on open, and how editor settings and the project's
// .nginx-keepalive.json change it.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node.js';
import { DiagnosticSeverity, type Diagnostic, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { docsUrl } from '../../server/src/engine/docs-url.js';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const DOKKU = readFileSync(path.join(REPO_ROOT, 'examples/dokku/nginx.conf.sigil'), 'utf8');
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;
const byCode = (diagnostics: Diagnostic[], code: string) => diagnostics.find((d) => d.code === code);

/** What examples/dokku gets: the two rules' warnings and a note at each of its two templated includes. */
const DOKKU_CODES = ['connection-header-passthrough', 'include', 'include', 'upstream-keepalive'];

/** Without the templated-include notes (information from the include rule, whatever the settings say). */
function withoutNotes(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.code !== 'include');
}

async function openDokku(settings: Record<string, unknown> = {}, extraFiles: Record<string, string> = {}) {
  const dir = tree({ 'nginx.conf.sigil': DOKKU, ...extraFiles });
  const client = await LspClient.start({ workspace: dir, settings });
  const doc = client.open(path.join(dir, 'nginx.conf.sigil'), DOKKU);
  return { dir, client, doc, published: await client.diagnosticsFor(doc.uri, doc.version) };
}

describe('diagnostics on open', () => {
  it('reports the Dokku template with rule id, docs link, source, severity and range', async () => {
    const { published } = await openDokku();
    // The two templated `include {{ $.DOKKU_ROOT }}/...` lines get a note: the app's own locations are not checked.
    expect(published.diagnostics.map((d) => d.code).sort()).toEqual(DOKKU_CODES);
    for (const diagnostic of published.diagnostics) {
      expect(diagnostic.source).toBe('nginx-keepalive');
      expect(diagnostic.codeDescription?.href).toBe(docsUrl(String(diagnostic.code)));
      const severity = diagnostic.code === 'include' ? DiagnosticSeverity.Information : DiagnosticSeverity.Warning;
      expect(diagnostic.severity).toBe(severity);
    }
    const upstream = byCode(published.diagnostics, 'upstream-keepalive')!;
    const line = lineOf(DOKKU, 'upstream {{ $.APP }}-{{ $upstream_port }} {');
    expect(upstream.range).toEqual({
      start: { line, character: 'upstream '.length },
      end: { line, character: 'upstream {{ $.APP }}-{{ $upstream_port }}'.length },
    });
    expect(byCode(published.diagnostics, 'connection-header-passthrough')!.range.start.line).toBe(
      lineOf(DOKKU, '    proxy_set_header Connection $http_connection;'),
    );
  });

  it('is served by `nginx-keepalive lsp --stdio` too', async () => {
    const dir = tree({ 'nginx.conf.sigil': DOKKU });
    const client = await LspClient.start({ workspace: dir, entry: 'cli' });
    expect(client.initializeResult.serverInfo?.name).toBe('nginx-keepalive');
    const doc = client.open(path.join(dir, 'nginx.conf.sigil'), DOKKU);
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(published.diagnostics.map((d) => d.code).sort()).toEqual(DOKKU_CODES);
  });

  it('is served over --node-ipc too (what vscode-languageclient uses for TransportKind.ipc)', async () => {
    const dir = tree({ 'nginx.conf.sigil': DOKKU });
    const child = fork(path.join(REPO_ROOT, 'dist/server.js'), ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const published = new Promise<PublishDiagnosticsParams>((resolve) =>
        connection.onNotification('textDocument/publishDiagnostics', resolve),
      );
      connection.listen();
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: uriOf(dir), capabilities: {} });
      connection.sendNotification('initialized', {});
      const uri = uriOf(path.join(dir, 'nginx.conf.sigil'));
      connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'nginx', version: 1, text: DOKKU } });
      expect((await published).diagnostics.map((d) => d.code).sort()).toEqual(DOKKU_CODES);
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      expect(await exited).toBe(0);
    } finally {
      connection.dispose();
      child.kill();
    }
  });

  it('shows a lone CR inside a comment where the editor draws it, a line break by LSP positions', async () => {
    // The LSP counts a lone CR as a line end (as VS Code draws it); nginx does not, so keepalive 16; is comment text.
    const text = 'upstream app {\n    server 127.0.0.1:8080; # primary\rkeepalive 16;\n}\n';
    const dir = tree({ 'site.conf': text });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'site.conf'), text);
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(published.diagnostics.map((d) => d.code).sort()).toEqual(['lone-carriage-return', 'upstream-keepalive']);
    const character = '    server 127.0.0.1:8080; # primary'.length;
    expect(byCode(published.diagnostics, 'lone-carriage-return')!.range).toEqual({ start: { line: 1, character }, end: { line: 2, character: 0 } });
    expect(byCode(published.diagnostics, 'lone-carriage-return')!.message).toContain('"keepalive 16;"');
  });

  it("clears a document's diagnostics when it is closed (open files only: in the workspace they stay)", async () => {
    // With nginxKeepalive.diagnostics "workspace" (the default) a closed workspace file keeps its problems
    // (test/lsp/workspace-diagnostics.test.ts).
    const { client, doc } = await openDokku({ diagnostics: 'openFiles' });
    client.close(doc.uri);
    const cleared = await client.waitForDiagnostics(doc.uri, (params) => params.diagnostics.length === 0);
    expect(cleared.diagnostics).toEqual([]);
  });
});

describe('settings', () => {
  it('take severities from the editor settings, and re-publish when they change', async () => {
    const { client, doc, published } = await openDokku({ rules: { 'upstream-keepalive': 'error' } });
    expect(byCode(published.diagnostics, 'upstream-keepalive')?.severity).toBe(DiagnosticSeverity.Error);
    client.setSettings({ rules: { 'upstream-keepalive': 'off', 'connection-header-passthrough': 'info' } });
    const changed = await client.waitForDiagnostics(doc.uri, (params) => !byCode(params.diagnostics, 'upstream-keepalive'));
    expect(withoutNotes(changed.diagnostics).map((d) => [d.code, d.severity])).toEqual([
      ['connection-header-passthrough', DiagnosticSeverity.Information],
    ]);
  });

  it('let nginxVersion change what is reported', async () => {
    // From nginx 1.29.7 upstreams keep connections by default: only explicit problems remain.
    const { published } = await openDokku({ nginxVersion: '1.30.0' });
    expect(byCode(published.diagnostics, 'upstream-keepalive')).toBeUndefined();
    expect(byCode(published.diagnostics, 'connection-header-passthrough')).toBeDefined();
  });

  it('give way to .nginx-keepalive.json, key by key, and follow its changes on disk', async () => {
    const config = JSON.stringify({ rules: { 'upstream-keepalive': 'info' } });
    const { client, dir, doc, published } = await openDokku(
      { rules: { 'upstream-keepalive': 'error', 'connection-header-passthrough': 'error' } },
      { '.nginx-keepalive.json': config },
    );
    expect(byCode(published.diagnostics, 'upstream-keepalive')?.severity).toBe(DiagnosticSeverity.Information);
    expect(byCode(published.diagnostics, 'connection-header-passthrough')?.severity).toBe(DiagnosticSeverity.Error);

    const configFile = path.join(dir, '.nginx-keepalive.json');
    writeFileSync(configFile, JSON.stringify({ rules: { 'upstream-keepalive': 'off' } }));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(configFile), type: 2 }] });
    const after = await client.waitForDiagnostics(doc.uri, (params) => !byCode(params.diagnostics, 'upstream-keepalive'));
    expect(withoutNotes(after.diagnostics).map((d) => d.code)).toEqual(['connection-header-passthrough']);
  });

  it('that are invalid are reported with a warning and replaced by their defaults', async () => {
    const { client, published } = await openDokku({
      nginxVersion: 'latest',
      keepaliveConnections: -1,
      rules: { 'no-such-rule': 'error' },
      pathMap: 'nope',
    });
    expect(withoutNotes(published.diagnostics).map((d) => [d.code, d.severity]).sort()).toEqual([
      ['connection-header-passthrough', DiagnosticSeverity.Warning],
      ['upstream-keepalive', DiagnosticSeverity.Warning],
    ]);
    const warning = client.messages.find((message) => message.type === 2)!;
    for (const key of ['nginxVersion', 'keepaliveConnections', 'no-such-rule', 'pathMap']) expect(warning.message).toContain(key);
  });

  it('with an invalid .nginx-keepalive.json: a warning naming the file, and the editor settings apply', async () => {
    const { client, published } = await openDokku(
      { rules: { 'upstream-keepalive': 'error' } },
      { '.nginx-keepalive.json': '{ "rules": { "upstream-keepalive": "loud" } }' },
    );
    expect(byCode(published.diagnostics, 'upstream-keepalive')?.severity).toBe(DiagnosticSeverity.Error);
    expect(client.messages.some((m) => m.type === 2 && m.message.includes('.nginx-keepalive.json'))).toBe(true);
  });

  it('registers file watching and configuration changes with the client', async () => {
    const { client } = await openDokku();
    const watch = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
    const globs = (watch?.registerOptions as { watchers: Array<{ globPattern: string }> }).watchers.map((w) => w.globPattern);
    expect(globs).toEqual([
      '**/*.conf', '**/*.sigil', '**/nginx.tmpl', '**/sites-*/**', '**/.nginx-keepalive.json',
      // Dockerfiles and compose files: they decide the nginx version assumed.
      '**/{Dockerfile,Dockerfile.*,*.Dockerfile,Containerfile}',
      '**/{docker-compose,compose}*.{yml,yaml}',
    ]);
    expect(client.registrations.some((r) => r.method === 'workspace/didChangeConfiguration')).toBe(true);
  });
});

describe('pathMap', () => {
  const MAIN = 'events {}\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n}\n';
  const files = { 'nginx.conf': MAIN, 'deploy/conf.d/app.conf': 'upstream app {\n    server 127.0.0.1:3000;\n    keepalive 16;\n}\n' };

  async function includeFindings(settings: Record<string, unknown>) {
    const dir = tree(files);
    const client = await LspClient.start({ workspace: dir, settings });
    const doc = client.open(path.join(dir, 'nginx.conf'), MAIN);
    return (await client.diagnosticsFor(doc.uri, doc.version)).diagnostics.filter((d) => d.code === 'include');
  }

  it('without a mapping, an absolute include is reported and not followed', async () => {
    expect(await includeFindings({})).toHaveLength(1);
  });

  for (const [form, pathMap] of [
    ['an object (as in .nginx-keepalive.json)', { '/etc/nginx': 'deploy' }],
    ['an array of FROM=TO (as --path-map)', ['/etc/nginx=deploy']],
    ['an array of {from, to}', [{ from: '/etc/nginx/', to: 'deploy' }]],
  ] as const) {
    it(`given as ${form}, relative to the workspace folder, is followed`, async () => {
      expect(await includeFindings({ pathMap })).toEqual([]);
    });
  }
});
