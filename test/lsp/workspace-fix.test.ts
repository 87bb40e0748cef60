// The command nginx-keepalive.fixAllInWorkspace: every fix in every nginx file of the workspace, sent back as one
// workspace/applyEdit (open documents pinned to their version, closed files to null); it answers the file count.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { TextDocumentEdit } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { applyEdits, editsFor, LspClient, uriOf } from '../support/lsp-client.js';

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

  const changed = await client.request<number>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' });
  expect(changed).toBe(3);
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

it('answers 0 and sends no edit when there is nothing to fix', async () => {
  const dir = tree({ 'nginx.conf': read('upstream-keepalive/invalid-balancer-last.fixed.conf') });
  const client = await LspClient.start({ workspace: dir });
  expect(await client.request<number>('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' })).toBe(0);
  expect(client.appliedEdits).toEqual([]);
});

it('is announced in the server capabilities', async () => {
  const client = await LspClient.start({ workspace: tree({}) });
  expect(client.initializeResult.capabilities.executeCommandProvider?.commands).toContain('nginx-keepalive.fixAllInWorkspace');
  expect(client.initializeResult.capabilities.textDocumentSync).toMatchObject({ change: 2, openClose: true });
});
