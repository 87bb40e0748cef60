// The command nginx-keepalive.fixAllInWorkspace: every fix in every nginx file of the workspace, sent back as one
// workspace/applyEdit (open documents pinned to their version, closed files to null); it answers the file count.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TextDocumentEdit } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { applyEdits, editsFor, LspClient, uriOf } from '../support/lsp-client.js';

/** The command's answer (lsp/fix-workspace-command.ts WorkspaceFixSummary). */
interface Summary {
  files: number;
  fixes: number;
}

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const read = (relative: string) => readFileSync(path.join(FIXTURES_DIR, relative), 'utf8');
const SITE_CASE = 'connection-header-passthrough/invalid-site-included.d';

it('fixes every nginx file of the workspace in one edit, open ones with their unsaved text', async () => {
  const files = {
    'balancer.conf': read('upstream-keepalive/invalid-balancer-last.conf'),
    'main/nginx.conf': read(`${SITE_CASE}/nginx.conf`),
    'main/sites/app.conf': read(`${SITE_CASE}/sites/app.conf`),
    'clean.conf': read('upstream-keepalive/invalid-balancer-last.fixed.conf'),
    'README.md': 'not nginx { at all;\n',
  };
  const dir = tree(files);
  const client = await LspClient.start({ workspace: dir });
  const unsaved = `# unsaved\n${files['balancer.conf']}`;
  const open = client.open(path.join(dir, 'balancer.conf'), unsaved);
  await client.diagnosticsFor(open.uri, open.version);

  const changed = await client.request<Summary>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' });
  // Three files changed by two fixes (the client says "fixed 2 problems in 3 files"): the balancer's keepalive
  // moved, and one upstream-keepalive fix editing both the upstream in nginx.conf and the pass in sites/app.conf.
  expect(changed).toEqual({ files: 3, fixes: 2 });
  expect(client.appliedEdits).toHaveLength(1);
  const { edit } = client.appliedEdits[0]!;
  const versions = Object.fromEntries(
    (edit.documentChanges as TextDocumentEdit[]).map((change) => [path.relative(dir, new URL(change.textDocument.uri).pathname), change.textDocument.version]),
  );
  expect(versions).toEqual({ 'balancer.conf': 1, 'main/nginx.conf': null, 'main/sites/app.conf': null });

  const fixed = (relative: string, text: string) => applyEdits(text, editsFor(edit, uriOf(path.join(dir, relative))));
  expect(fixed('balancer.conf', unsaved)).toBe(`# unsaved\n${read('upstream-keepalive/invalid-balancer-last.fixed.conf')}`);
  expect(fixed('main/nginx.conf', files['main/nginx.conf'])).toBe(read(`${SITE_CASE}/nginx.fixed.conf`));
  expect(fixed('main/sites/app.conf', files['main/sites/app.conf'])).toBe(read(`${SITE_CASE}/sites/app.fixed.conf`));
});

it('answers zero files and fixes, and sends no edit, when there is nothing to fix', async () => {
  const dir = tree({ 'nginx.conf': read('upstream-keepalive/invalid-balancer-last.fixed.conf') });
  const client = await LspClient.start({ workspace: dir });
  expect(await client.request<Summary>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' })).toEqual({ files: 0, fixes: 0 });
  expect(client.appliedEdits).toEqual([]);
});

it('is announced in the server capabilities', async () => {
  const client = await LspClient.start({ workspace: tree({}) });
  expect(client.initializeResult.capabilities.executeCommandProvider?.commands).toContain('nginx-keepalive.fixAllInWorkspace');
  expect(client.initializeResult.capabilities.textDocumentSync).toMatchObject({ change: 2, openClose: true });
});

describe('the Debian layout (sites-enabled/app.conf -> ../sites-available/app.conf)', () => {
  const NGINX_CONF = 'events {}\nhttp {\n  include sites-enabled/*.conf;\n}\n';
  const SITE = 'upstream app {\n  server 127.0.0.1:8080;\n}\nserver {\n  listen 80;\n  location / {\n    proxy_pass http://app;\n  }\n}\n';
  const FIXED =
    'upstream app {\n  server 127.0.0.1:8080;\n  keepalive 16;\n}\nserver {\n  listen 80;\n  location / {\n' +
    '    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n    proxy_pass http://app;\n  }\n}\n';
  const layout = () => {
    const dir = tree({ 'nginx.conf': NGINX_CONF, 'sites-available/app.conf': SITE });
    mkdirSync(path.join(dir, 'sites-enabled'));
    symlinkSync('../sites-available/app.conf', path.join(dir, 'sites-enabled/app.conf'));
    return dir;
  };
  const changedFiles = (client: LspClient, dir: string) =>
    (client.appliedEdits[0]!.edit.documentChanges as TextDocumentEdit[]).map((change) => ({
      file: path.relative(dir, new URL(change.textDocument.uri).pathname),
      version: change.textDocument.version,
    }));

  it('sends one edit set for the linked file, not one per path (an editor keeps one buffer for both)', async () => {
    const dir = layout();
    const client = await LspClient.start({ workspace: dir });
    expect((await client.request<Summary>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' })).files).toBe(1);
    expect(client.appliedEdits).toHaveLength(1);
    expect(changedFiles(client, dir)).toEqual([{ file: 'sites-available/app.conf', version: null }]);
    const { edit } = client.appliedEdits[0]!;
    expect(applyEdits(SITE, editsFor(edit, uriOf(path.join(dir, 'sites-available/app.conf'))))).toBe(FIXED);
  });

  it('fixes the open document when the file is open under the link, with its unsaved text and version', async () => {
    const dir = layout();
    const client = await LspClient.start({ workspace: dir });
    const unsaved = `# unsaved\n${SITE}`;
    const link = path.join(dir, 'sites-enabled/app.conf');
    const open = client.open(link, unsaved);
    await client.diagnosticsFor(open.uri, open.version);
    expect((await client.request<Summary>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' })).files).toBe(1);
    expect(changedFiles(client, dir)).toEqual([{ file: 'sites-enabled/app.conf', version: 1 }]);
    expect(applyEdits(unsaved, editsFor(client.appliedEdits[0]!.edit, open.uri))).toBe(`# unsaved\n${FIXED}`);
  });
});
