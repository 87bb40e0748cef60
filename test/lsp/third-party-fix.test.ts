// Issue 25 item 1 in the editor, over a real stdio connection: the document's fix-all, source.fixAll on save and
// fixAllInWorkspace apply proxy-pass-no-upstream's safe rewrite of a pass to a third party, but never the unsafe copy
// of X-Real-IP / X-Forwarded-For into it (the pass goes to the same stranger through the new upstream{}).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Range } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { applyEdits, editsFor, LspClient, uriOf } from '../support/lsp-client.js';

const SITE = readFileSync(path.join(FIXTURES_DIR, 'proxy-set-header-inheritance/invalid-third-party-rewritten.conf'), 'utf8');
const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } };
const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

async function openSite() {
  const dir = tree({ 'nginx.conf': SITE });
  const client = await LspClient.start({ workspace: dir });
  const doc = client.open(path.join(dir, 'nginx.conf'), SITE);
  const { diagnostics } = await client.diagnosticsFor(doc.uri, doc.version);
  expect(diagnostics.map((diagnostic) => diagnostic.code).sort()).toEqual(['proxy-pass-no-upstream', 'proxy-set-header-inheritance']);
  return { client, dir, uri: doc.uri };
}

/** What a fix must do here: the pass rewritten to the stranger's upstream, no client address copied into it. */
function expectSafelyFixed(fixed: string): void {
  expect(fixed).toContain('proxy_pass https://backend_api_payments_example_443;');
  const location = fixed.slice(fixed.indexOf('location /pay/ {'));
  expect(location.slice(0, location.indexOf('}'))).not.toMatch(/X-Real-IP|X-Forwarded-For/);
}

describe('fix-all towards a third party', () => {
  it("the document's fix-all (among all code actions) leaves the unsafe copy out", async () => {
    const { client, uri } = await openSite();
    const all = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: WHOLE, context: { diagnostics: [] } });
    const fixAll = all.find((action) => action.kind === 'source.fixAll.nginx-keepalive')!;
    expectSafelyFixed(applyEdits(SITE, editsFor(fixAll.edit, uri)));
  });

  it('source.fixAll on save (only: ["source.fixAll.nginx-keepalive"]) leaves it out too', async () => {
    const { client, uri } = await openSite();
    const collapsed = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    for (const only of [['source.fixAll.nginx-keepalive'], ['source.fixAll']]) {
      const [onSave] = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: collapsed,
        context: { diagnostics: [], only, triggerKind: 2 },
      });
      expectSafelyFixed(applyEdits(SITE, editsFor(onSave!.edit, uri)));
    }
  });

  it('fixAllInWorkspace leaves it out too', async () => {
    const { client, dir } = await openSite();
    await client.request('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' });
    const { edit } = client.appliedEdits[0]!;
    expectSafelyFixed(applyEdits(SITE, editsFor(edit, uriOf(path.join(dir, 'nginx.conf')))));
  });
});
