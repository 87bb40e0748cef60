// Multi-root workspaces (issue 14): each workspace folder has its own editor settings (workspace/configuration with
// the folder's scopeUri) and its own `.nginx-keepalive.json`; diagnostics, fix-all and the output follow them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, type TextDocumentEdit } from 'vscode-languageserver-protocol';
import { DEFAULT_EDITOR_SETTINGS } from '../../server/src/lsp/editor-settings.js';
import { FolderSettings } from '../../server/src/lsp/folder-settings.js';
import { useTempTrees } from '../cli/helpers.js';
import { applyEdits, editsFor, LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const SITE =
  'upstream app {\n  server 127.0.0.1:8080;\n}\nserver {\n  listen 80;\n  location / {\n    proxy_pass http://app;\n  }\n}\n';

/**
 * Folder `site-a` turns upstream-keepalive off in its editor settings and asks for keepalive 8 in its settings file;
 * `site-b` makes upstream-keepalive an error and asks for keepalive 32. Both hold the same site, unfixed.
 */
function twoFolders() {
  const root = tree({
    'site-a/.nginx-keepalive.json': JSON.stringify({ keepaliveConnections: 8 }),
    'site-a/app.conf': SITE,
    'site-b/.nginx-keepalive.json': JSON.stringify({ keepaliveConnections: 32 }),
    'site-b/app.conf': SITE,
  });
  const a = path.join(root, 'site-a');
  const b = path.join(root, 'site-b');
  const folderSettings = {
    [a]: { rules: { 'upstream-keepalive': 'off' } },
    [b]: { rules: { 'upstream-keepalive': 'error' } },
  };
  return { root, a, b, folderSettings };
}

const codesAndSeverities = (diagnostics: Array<{ code?: unknown; severity?: number }>) =>
  diagnostics.map((diagnostic) => `${String(diagnostic.code)}:${diagnostic.severity}`).sort();

describe('a two-folder workspace', () => {
  it('pulls the settings of every folder in one request, each item scoped to its folder', async () => {
    const { a, b, folderSettings } = twoFolders();
    const client = await LspClient.start({ folders: [a, b], folderSettings });
    const doc = client.open(path.join(a, 'app.conf'), SITE);
    await client.diagnosticsFor(doc.uri, doc.version);
    expect(client.configurationRequests).toHaveLength(1);
    expect(client.configurationRequests[0]!.items).toEqual([
      { section: 'nginxKeepalive' },
      { section: 'nginxKeepalive', scopeUri: uriOf(a) },
      { section: 'nginxKeepalive', scopeUri: uriOf(b) },
    ]);
  });

  it("reports each folder's files with that folder's settings", async () => {
    const { a, b, folderSettings } = twoFolders();
    const client = await LspClient.start({ folders: [a, b], folderSettings });
    const inA = client.open(path.join(a, 'app.conf'), SITE);
    const inB = client.open(path.join(b, 'app.conf'), SITE);
    const codesA = codesAndSeverities((await client.diagnosticsFor(inA.uri, inA.version)).diagnostics);
    const codesB = codesAndSeverities((await client.diagnosticsFor(inB.uri, inB.version)).diagnostics);
    expect(codesA.some((code) => code.startsWith('upstream-keepalive'))).toBe(false);
    expect(codesB).toContain(`upstream-keepalive:${DiagnosticSeverity.Error}`);
    // Everything else is the same in both.
    expect(codesB.filter((code) => !code.startsWith('upstream-keepalive'))).toEqual(codesA);
  });

  it('writes each folder\'s effective settings to the output, and again when they change', async () => {
    const { a, b, folderSettings } = twoFolders();
    const client = await LspClient.start({ folders: [a, b], folderSettings });
    const doc = client.open(path.join(a, 'app.conf'), SITE);
    await client.diagnosticsFor(doc.uri, doc.version);
    const lineFor = (folder: string) => client.logs.filter((log) => log.message.startsWith(`settings for ${folder}:`)).map((log) => log.message);
    expect(lineFor(a)).toEqual([expect.stringContaining('keepalive 8, rules: upstream-keepalive off, pathMap: none, diagnostics: workspace')]);
    expect(lineFor(b)).toEqual([expect.stringContaining('keepalive 32, rules: upstream-keepalive error')]);
    expect(lineFor(a)[0]).toContain('nginx before 1.29.7 (default)');

    client.setSettings({}, { [b]: { rules: { 'upstream-keepalive': 'info' }, nginxVersion: '1.30.0' } });
    await client.waitForDiagnostics(doc.uri, () => lineFor(b).length === 2);
    expect(lineFor(b)[1]).toContain('nginx 1.30.0 (nginxKeepalive.nginxVersion setting), keepalive 32, rules: upstream-keepalive info');
    // Folder a's line did not change: it is not written again.
    expect(lineFor(a)).toHaveLength(1);
  });

  it("fixes each folder with its own settings file's keepalive N, and both end clean by their own settings", async () => {
    const { a, b, folderSettings } = twoFolders();
    const client = await LspClient.start({ folders: [a, b], folderSettings });
    const summary = await client.request<{ files: number; fixes: number }>('workspace/executeCommand', {
      command: 'nginx-keepalive.fixAllInWorkspace',
    });
    expect(summary.files).toBe(2);
    const { edit } = client.appliedEdits[0]!;
    expect((edit.documentChanges as TextDocumentEdit[]).map((change) => change.textDocument.uri).sort()).toEqual(
      [uriOf(path.join(a, 'app.conf')), uriOf(path.join(b, 'app.conf'))].sort(),
    );
    const fixedA = applyEdits(SITE, editsFor(edit, uriOf(path.join(a, 'app.conf'))));
    const fixedB = applyEdits(SITE, editsFor(edit, uriOf(path.join(b, 'app.conf'))));
    // site-a's upstream-keepalive is off, but the HTTP/1.1 fix of its pass still readies the upstream (keepalive 8).
    expect(fixedA).toContain('  keepalive 8;\n');
    expect(fixedB).toContain('  keepalive 32;\n');
    writeFileSync(path.join(a, 'app.conf'), fixedA);
    writeFileSync(path.join(b, 'app.conf'), fixedB);
    // Each fixed file is clean by its own folder's settings.
    for (const [file, text] of [[path.join(a, 'app.conf'), fixedA], [path.join(b, 'app.conf'), fixedB]] as const) {
      const doc = client.open(file, text);
      expect((await client.diagnosticsFor(doc.uri, doc.version)).diagnostics).toEqual([]);
    }
  });

  it('gives pushed settings (a client without workspace/configuration) to every folder', async () => {
    const { a, b } = twoFolders();
    const client = await LspClient.start({ folders: [a, b], capabilities: { workspace: { configuration: false } } });
    client.setSettings({ rules: { 'upstream-keepalive': 'error' } });
    const inA = client.open(path.join(a, 'app.conf'), SITE);
    const inB = client.open(path.join(b, 'app.conf'), SITE);
    for (const doc of [inA, inB]) {
      const published = await client.waitForDiagnostics(doc.uri, (params) =>
        params.version === doc.version && params.diagnostics.some((d) => d.code === 'upstream-keepalive' && d.severity === DiagnosticSeverity.Error),
      );
      expect(published.version).toBe(doc.version);
    }
    expect(client.configurationRequests).toEqual([]);
  });
});

describe('FolderSettings', () => {
  it('gives a file the settings of the deepest folder holding it, and a file outside every folder the window\'s', () => {
    const settings = new FolderSettings();
    const outer = { ...DEFAULT_EDITOR_SETTINGS, keepaliveConnections: 1 };
    const inner = { ...DEFAULT_EDITOR_SETTINGS, keepaliveConnections: 2 };
    const window = { ...DEFAULT_EDITOR_SETTINGS, keepaliveConnections: 3 };
    settings.set(window, new Map([['/w', outer], ['/w/inner', inner]]));
    expect(settings.for('/w/inner/site.conf').keepaliveConnections).toBe(2);
    expect(settings.for('/w/inner-not/site.conf').keepaliveConnections).toBe(1);
    expect(settings.for('/w/site.conf').keepaliveConnections).toBe(1);
    expect(settings.for('/elsewhere/site.conf').keepaliveConnections).toBe(3);
  });
});
