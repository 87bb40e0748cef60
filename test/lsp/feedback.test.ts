// What the server tells the editor besides diagnostics, over a real stdio connection to the built server: the code
// lens on each upstream (its refresh and its click), the semantic-token refresh once a document's model is ready,
// the status the editor's status item shows, and the rules' documentation pages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeLens, SemanticTokens, ShowDocumentParams } from 'vscode-languageserver-protocol';
import { readEditorSettings } from '../../server/src/lsp/editor-settings.js';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const UPSTREAMS = `upstream app {
    server 127.0.0.1:3000;
    keepalive 16;
}
`;

const MAIN = `events {}
http {
    include upstreams.conf;
    server {
        listen 80;
        location / {
            proxy_pass http://app;
        }
    }
}
`;

const READY_LOCATION = `location / {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://app;
        }`;

const REFRESHES = { workspace: { codeLens: { refreshSupport: true }, semanticTokens: { refreshSupport: true } }, window: { showDocument: { support: true } } };

/** Resolves on each server request `method`: `next()` waits for the next one not yet taken. */
function serverRequests<P>(client: LspClient, method: string, answer: unknown = null) {
  const received: P[] = [];
  let waiting: (() => void) | undefined;
  client.connection.onRequest(method, (params: P) => {
    received.push(params);
    waiting?.();
    return answer;
  });
  let taken = 0;
  return {
    received,
    next: async (): Promise<P> => {
      while (received.length <= taken) await new Promise<void>((resolve) => (waiting = resolve));
      return received[taken++]!;
    },
  };
}

async function lensTitles(client: LspClient, uri: string): Promise<string[]> {
  const lenses = await client.request<CodeLens[] | null>('textDocument/codeLens', { textDocument: { uri } });
  return (lenses ?? []).map((lens) => lens.command?.title ?? '');
}

describe('the upstream code lens', () => {
  it('counts the passes, refreshes when an edit in another file changes it, and reveals the pass on click', async () => {
    const dir = tree({ 'nginx.conf': MAIN, 'upstreams.conf': UPSTREAMS });
    const client = await LspClient.start({ workspace: dir, settings: { nginxVersion: '1.22.1' }, capabilities: REFRESHES });
    const refreshes = serverRequests(client, 'workspace/codeLens/refresh');
    const shown = serverRequests<ShowDocumentParams>(client, 'window/showDocument', { success: true });
    const main = client.open(path.join(dir, 'nginx.conf'), MAIN);
    const upstreams = client.open(path.join(dir, 'upstreams.conf'), UPSTREAMS);
    expect(client.initializeResult.capabilities.codeLensProvider).toEqual({ resolveProvider: false });

    const [lens] = (await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: upstreams.uri } }));
    expect(lens!.command?.title).toBe('keepalive ✓ · 1 pass needs HTTP/1.1 + Connection ""');
    expect(lens!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 8 } });
    expect(await lensTitles(client, main.uri)).toEqual([]);

    // A click: the server asks the client to show the pass in the other file.
    expect(lens!.command?.command).toBe('nginx-keepalive.revealPass');
    await client.request('workspace/executeCommand', { command: lens!.command!.command, arguments: lens!.command!.arguments });
    expect(await shown.next()).toEqual({
      uri: main.uri,
      selection: { start: { line: 6, character: 12 }, end: { line: 6, character: 34 } },
      takeFocus: true,
    });

    // Fixing the location in nginx.conf changes the lens of upstreams.conf: the server asks for lenses again.
    const fixed = MAIN.replace(/location \/ \{[^}]*\}/, READY_LOCATION);
    client.change(main.uri, [{ text: fixed }]);
    await refreshes.next();
    expect(await lensTitles(client, upstreams.uri)).toEqual(['keepalive ✓ · 1 pass ready']);

    // Switched off in the settings: a refresh, then no lens.
    client.setSettings({ nginxVersion: '1.22.1', codeLens: { enabled: false } });
    await refreshes.next();
    expect(await lensTitles(client, upstreams.uri)).toEqual([]);
  });

  it('has no click without window/showDocument, and rejects a click with nothing to show', async () => {
    const dir = tree({ 'nginx.conf': MAIN, 'upstreams.conf': UPSTREAMS });
    const client = await LspClient.start({ workspace: dir, settings: { nginxVersion: '1.22.1' } });
    client.open(path.join(dir, 'nginx.conf'), MAIN);
    const upstreams = client.open(path.join(dir, 'upstreams.conf'), UPSTREAMS);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: upstreams.uri } });
    expect(lenses.map((lens) => lens.command)).toEqual([{ title: 'keepalive ✓ · 1 pass needs HTTP/1.1 + Connection ""', command: '' }]);
    await expect(client.request('workspace/executeCommand', { command: 'nginx-keepalive.revealPass', arguments: [{}] })).rejects.toThrow(
      /nginx-keepalive.revealPass expects \{ uri, range \}/,
    );
  });
});

describe('nginxKeepalive.codeLens.enabled', () => {
  it('is read nested (as VS Code sends it) or flat, defaults to on, and a wrong type is reported', () => {
    const read = (raw: unknown) => readEditorSettings(raw, undefined, new Set());
    expect(read({}).settings.codeLens).toBe(true);
    expect(read({ codeLens: { enabled: false } }).settings.codeLens).toBe(false);
    expect(read({ 'codeLens.enabled': false }).settings.codeLens).toBe(false);
    expect(read({ codeLens: { enabled: 'no' } })).toMatchObject({
      settings: { codeLens: true },
      problems: ['"codeLens.enabled": expected true or false, got "no"'],
    });
  });
});

describe('semantic tokens on first open', () => {
  it('answers at once from the text, and asks the client to refresh once the model is ready', async () => {
    const sigil = readFileSync(path.join(REPO_ROOT, 'examples/dokku/nginx.conf.sigil'), 'utf8');
    const dir = tree({ 'nginx.conf.sigil': sigil });
    const client = await LspClient.start({ workspace: dir, capabilities: REFRESHES });
    const refreshes = serverRequests(client, 'workspace/semanticTokens/refresh');
    const doc = client.open(path.join(dir, 'nginx.conf.sigil'), sigil);
    // Asked right after didOpen, before any analysis published: coloured already.
    const tokens = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri: doc.uri } });
    expect(tokens.data.length).toBeGreaterThan(500);
    await refreshes.next();
    expect(client.latestDiagnostics(doc.uri)?.version).toBe(1);
    // Once per opened document: an edit analyzes again but asks for no second refresh.
    const version = client.change(doc.uri, [{ text: `${sigil}\n# edited\n` }]);
    await client.diagnosticsFor(doc.uri, version);
    // Any refresh would have been written before this answer (it is sent right after the publish).
    await client.request('nginxKeepalive/status', { uri: doc.uri });
    expect(refreshes.received).toHaveLength(1);
  });

  it('sends no refresh to a client without refreshSupport', async () => {
    const dir = tree({ 'nginx.conf': MAIN, 'upstreams.conf': UPSTREAMS });
    const client = await LspClient.start({ workspace: dir });
    const refreshes = serverRequests(client, 'workspace/semanticTokens/refresh');
    const doc = client.open(path.join(dir, 'nginx.conf'), MAIN);
    await client.diagnosticsFor(doc.uri, 1);
    await client.request('nginxKeepalive/status', { uri: doc.uri });
    expect(refreshes.received).toHaveLength(0);
  });
});

describe('the status request', () => {
  it('says which nginx the file is checked for, where that came from, and how many files were checked', async () => {
    const dir = tree({ 'nginx.conf': MAIN, 'upstreams.conf': UPSTREAMS, 'docker/Dockerfile': 'FROM nginx:1.27.3-alpine\n' });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf'), MAIN);
    await client.diagnosticsFor(doc.uri, 1);
    const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await client.request('nginxKeepalive/status', { uri: doc.uri })).toEqual({
      serverVersion: version,
      nginx: { label: '1.27.3', source: 'detected', origin: 'docker/Dockerfile:1' },
      // nginx.conf and the upstreams.conf it includes.
      filesChecked: 2,
      openDocuments: 1,
    });

    const published = client.publications.length;
    client.setSettings({ nginxVersion: '1.30.0' });
    // Analyzed again with the new settings: they are loaded.
    await client.waitForDiagnostics(doc.uri, () => client.publications.length > published);
    const status = await client.request<{ nginx: unknown }>('nginxKeepalive/status', { uri: doc.uri });
    expect(status.nginx).toEqual({ label: '1.30.0', source: 'editor', origin: 'nginxKeepalive.nginxVersion setting' });
  });

  it('answers without a document, and for the default', async () => {
    const dir = tree({ 'nginx.conf': MAIN });
    const client = await LspClient.start({ workspace: dir });
    const status = await client.request<{ nginx: unknown; filesChecked: number }>('nginxKeepalive/status', null);
    expect(status).toMatchObject({ nginx: { label: 'before 1.29.7', source: 'default', origin: 'default' }, filesChecked: 0, openDocuments: 0 });
  });
});

describe('the rules documentation', () => {
  it('lists the rules and answers a page as the CLI prints it', async () => {
    const client = await LspClient.start();
    // As VS Code sends it: no params at all (the handler then gets only a cancellation token); and with null.
    const rules = (await client.connection.sendRequest('nginxKeepalive/rules')) as { id: string; description: string }[];
    expect(await client.request('nginxKeepalive/rules', null)).toEqual(rules);
    expect(rules.map((rule) => rule.id)).toContain('upstream-keepalive');
    expect(rules.every((rule) => rule.description.length > 10)).toBe(true);
    const page = await client.request<{ id: string; markdown: string }>('nginxKeepalive/ruleDocumentation', { id: 'upstream-keepalive' });
    expect(page).toEqual({ id: 'upstream-keepalive', markdown: readFileSync(path.join(REPO_ROOT, 'docs/rules/upstream-keepalive.md'), 'utf8') });
  });

  it('refuses an id that is no rule', async () => {
    const client = await LspClient.start();
    await expect(client.request('nginxKeepalive/ruleDocumentation', { id: '../../etc/passwd' })).rejects.toThrow(/unknown rule "..\/..\/etc\/passwd"/);
    await expect(client.request('nginxKeepalive/ruleDocumentation', null)).rejects.toThrow(/unknown rule undefined/);
  });
});
