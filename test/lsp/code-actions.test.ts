// Code actions over a real stdio connection, judged by their result: each edit is applied to the text here and
// compared with the fixture's golden `.fixed` file (the text fixAll must produce), or re-analyzed by the server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic, Range, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { applyEdits, editsFor, LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const fixture = (name: string) => readFileSync(path.join(FIXTURES_DIR, name), 'utf8');
/** One upstream-keepalive finding; its golden is the single fix applied. */
const SINGLE = 'upstream-keepalive/invalid-balancer-last.conf';
const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } };

async function openFixture(name: string, options: { resolve?: boolean; as?: string } = {}) {
  const text = fixture(name);
  const base = options.as ?? path.basename(name);
  const dir = tree({ [base]: text });
  const client = await LspClient.start({ workspace: dir, resolveCodeActionEdits: options.resolve });
  const doc = client.open(path.join(dir, base), text);
  const { diagnostics } = await client.diagnosticsFor(doc.uri, doc.version);
  return { client, uri: doc.uri, text, diagnostics };
}

function actions(client: LspClient, uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]) {
  return client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only } });
}

const versionOf = (action: CodeAction, uri: string) =>
  (action.edit?.documentChanges as TextDocumentEdit[]).find((change) => change.textDocument.uri === uri)?.textDocument.version;

describe('quick fixes', () => {
  it("apply the finding's fix, preferred, tied to its diagnostic and the analyzed version", async () => {
    const { client, uri, text, diagnostics } = await openFixture(SINGLE);
    expect(diagnostics.map((d) => d.code)).toEqual(['upstream-keepalive']);
    const [diagnostic] = diagnostics;
    const fixes = (await actions(client, uri, diagnostic!.range, diagnostics)).filter((a) => a.isPreferred);
    expect(fixes).toHaveLength(1);
    const [fix] = fixes;
    expect(fix!.kind).toBe('quickfix');
    expect(fix!.diagnostics).toEqual([diagnostic]);
    expect(versionOf(fix!, uri)).toBe(1);
    const fixed = applyEdits(text, editsFor(fix!.edit, uri));
    expect(fixed).toBe(fixture('upstream-keepalive/invalid-balancer-last.fixed.conf'));

    const version = client.change(uri, [{ text: fixed }]);
    expect((await client.diagnosticsFor(uri, version)).diagnostics).toEqual([]);
  });

  it('offer "Ignore <rule> on this line", which silences the finding without an unused suppression', async () => {
    const { client, uri, text, diagnostics } = await openFixture(SINGLE);
    const all = await actions(client, uri, diagnostics[0]!.range, diagnostics);
    const ignore = all.find((action) => action.title === 'Ignore upstream-keepalive on this line')!;
    expect(ignore.kind).toBe('quickfix');
    expect(ignore.isPreferred).toBeFalsy();
    const ignored = applyEdits(text, editsFor(ignore.edit, uri));
    expect(ignored).toBe(text.replace('upstream app {', '# nginx-keepalive-ignore upstream-keepalive\nupstream app {'));

    const version = client.change(uri, [{ text: ignored }]);
    expect((await client.diagnosticsFor(uri, version)).diagnostics).toEqual([]);
  });

  it('are only offered for findings in the requested range', async () => {
    const { client, uri } = await openFixture(SINGLE);
    const elsewhere = { start: { line: 12, character: 0 }, end: { line: 12, character: 1 } };
    expect(await actions(client, uri, elsewhere, [], ['quickfix'])).toEqual([]);
  });

  it('span files when the fix does: the map goes into the includer, which is not open (version null)', async () => {
    const dir = path.join(FIXTURES_DIR, 'connection-header-passthrough/invalid-site-included.d');
    const main = readFileSync(path.join(dir, 'nginx.conf'), 'utf8');
    const site = readFileSync(path.join(dir, 'sites/app.conf'), 'utf8');
    const workspace = tree({ 'nginx.conf': main, 'sites/app.conf': site });
    const client = await LspClient.start({ workspace });
    const doc = client.open(path.join(workspace, 'sites/app.conf'), site);
    const { diagnostics } = await client.diagnosticsFor(doc.uri, doc.version);
    expect(diagnostics.map((d) => d.code)).toEqual(['connection-header-passthrough']);
    const fix = (await actions(client, doc.uri, diagnostics[0]!.range, diagnostics)).find((a) => a.isPreferred)!;
    const mainUri = uriOf(path.join(workspace, 'nginx.conf'));
    expect(versionOf(fix, doc.uri)).toBe(1);
    expect(versionOf(fix, mainUri)).toBeNull();
    expect(applyEdits(site, editsFor(fix.edit, doc.uri))).toBe(readFileSync(path.join(dir, 'sites/app.fixed.conf'), 'utf8'));
    expect(applyEdits(main, editsFor(fix.edit, mainUri))).toBe(readFileSync(path.join(dir, 'nginx.fixed.conf'), 'utf8'));
  });
});

describe('source.fixAll.nginx-keepalive', () => {
  const INPUT = 'upstream-keepalive/invalid-dokku-current.sigil';
  const GOLDEN = 'upstream-keepalive/invalid-dokku-current.fixed.sigil';

  it('fixes everything in the document, as the golden file says', async () => {
    const { client, uri, text, diagnostics } = await openFixture(INPUT);
    expect(diagnostics.length).toBeGreaterThan(1);
    const offered = await actions(client, uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll']);
    expect(offered.map((action) => action.kind)).toEqual(['source.fixAll.nginx-keepalive']);
    expect(versionOf(offered[0]!, uri)).toBe(1);
    expect(applyEdits(text, editsFor(offered[0]!.edit, uri))).toBe(fixture(GOLDEN));
  });

  it('is resolved lazily for clients that resolve edits', async () => {
    const { client, uri, text } = await openFixture(INPUT, { resolve: true });
    const [action] = await actions(client, uri, WHOLE, [], ['source.fixAll.nginx-keepalive']);
    expect(action!.edit).toBeUndefined();
    const resolved = await client.request<CodeAction>('codeAction/resolve', action);
    expect(applyEdits(text, editsFor(resolved.edit, uri))).toBe(fixture(GOLDEN));
  });

  it('is not offered when nothing in the document is fixable', async () => {
    const { client, uri, diagnostics } = await openFixture('upstream-keepalive/invalid-balancer-last.fixed.conf', { as: 'nginx.conf' });
    expect(diagnostics).toEqual([]);
    expect(await actions(client, uri, WHOLE, [])).toEqual([]);
  });
});

describe('stale versions', () => {
  it('a fix-all resolved after the document changed is computed for, and pinned to, the new version', async () => {
    const { client, uri, text } = await openFixture(SINGLE, { resolve: true });
    const [action] = await actions(client, uri, WHOLE, [], ['source.fixAll']);
    const changed = `# a comment added after the action was offered\n${text}`;
    const version = client.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# a comment added after the action was offered\n' }]);
    const resolved = await client.request<CodeAction>('codeAction/resolve', action);
    expect(versionOf(resolved, uri)).toBe(version);
    expect(applyEdits(changed, editsFor(resolved.edit, uri))).toBe(
      `# a comment added after the action was offered\n${fixture('upstream-keepalive/invalid-balancer-last.fixed.conf')}`,
    );
  });

  it('a code action asked right after a change is computed for that change, never the older text', async () => {
    const { client, uri, text } = await openFixture(SINGLE);
    const prefix = '# moved down by one line\n';
    const version = client.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: prefix }]);
    const all = await actions(client, uri, WHOLE, []);
    const fix = all.find((action) => action.isPreferred)!;
    expect(versionOf(fix, uri)).toBe(version);
    expect(applyEdits(prefix + text, editsFor(fix.edit, uri))).toBe(prefix + fixture('upstream-keepalive/invalid-balancer-last.fixed.conf'));
  });
});
