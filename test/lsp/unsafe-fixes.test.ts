// Unsafe fixes in the editor, in-process with test rules in place of the registry (no registered rule is unsafe
// yet): offered as a quick fix that is never preferred and says so, and left out of every "fix all".
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeActionParams } from 'vscode-languageserver/node.js';
import type { Rule } from '../../server/src/analysis/rule-api.js';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { codeActions, FIX_ALL_KIND, resolveFixAll, unsafeTitle, type CodeActionContext } from '../../server/src/lsp/code-actions.js';
import { toDiagnostic } from '../../server/src/lsp/diagnostics.js';
import { OpenDocuments } from '../../server/src/lsp/documents.js';
import { fixFiles } from '../../server/src/lsp/fix-document.js';
import { uriOfPath } from '../../server/src/lsp/paths.js';
import { WorkspaceEditBuilder } from '../../server/src/lsp/workspace-edit.js';
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { Finding } from '../../server/src/util/types.js';
import { useTempTrees } from '../cli/helpers.js';
import { timeoutAfterListen, unsafePort } from '../engine/support.js';
import { applyEdits, editsFor } from '../support/lsp-client.js';

const registry = vi.hoisted(() => ({ rules: [] as Rule[] }));
vi.mock('../../server/src/rules/registry.js', () => ({
  rules: registry.rules,
  findRule: (id: string) => registry.rules.find((rule) => rule.meta.id === id),
}));

const tree = useTempTrees();
const TEXT = 'server {\n  listen 80;\n}\n';

async function setUp(...rules: Rule[]) {
  registry.rules.splice(0, registry.rules.length, ...rules);
  const dir = tree({ 'site.conf': TEXT });
  const file = path.join(dir, 'site.conf');
  const documents = new OpenDocuments();
  const document = documents.open(uriOfPath(file), 1, TEXT);
  const options = { host: createFsHost() };
  const { findings, workspace } = await analyzeWorkspace([{ path: file, text: TEXT }], options);
  const snapshot = { uri: document.uri, version: 1, path: file, text: TEXT, file: workspace.files[0]!, workspace, findings, options };
  const context: CodeActionContext = {
    documents,
    snapshot: async () => snapshot,
    edits: new WorkspaceEditBuilder(documents, true),
    resolvesEdits: false,
    rootFor: (open) => open.path,
    analyzeOptionsFor: () => options,
  };
  const params: CodeActionParams = {
    textDocument: { uri: document.uri },
    range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    context: { diagnostics: [] },
  };
  return { file, uri: document.uri, context, params, findings, options };
}

const byTitle = (actions: CodeAction[], title: string) => actions.find((action) => action.title === title);

describe('unsafe fixes in the editor', () => {
  it('are quick fixes that are not preferred and say they are unsafe; safe ones stay preferred', async () => {
    const { uri, context, params } = await setUp(unsafePort, timeoutAfterListen);
    const actions = await codeActions(params, context);
    const unsafe = byTitle(actions, 'Listen on 8443 instead (unsafe)')!;
    expect(unsafe).toMatchObject({ kind: 'quickfix', isPreferred: false });
    expect(applyEdits(TEXT, editsFor(unsafe.edit, uri))).toBe('server {\n  listen 8443;\n}\n');
    expect(byTitle(actions, 'add keepalive_timeout')).toMatchObject({ isPreferred: true });
  });

  it('are left out of the document\'s fix-all, which applies the safe ones', async () => {
    const { uri, context, params } = await setUp(unsafePort, timeoutAfterListen);
    const fixAll = (await codeActions(params, context)).find((action) => action.kind === FIX_ALL_KIND)!;
    const resolved = fixAll.edit ? fixAll : await resolveFixAll(fixAll, context);
    expect(applyEdits(TEXT, editsFor(resolved.edit, uri))).toBe('server {\n  listen 80;\n  keepalive_timeout 5s;\n}\n');
  });

  it('alone, offer no fix-all action at all (it would do nothing)', async () => {
    const { context, params } = await setUp(unsafePort);
    const actions = await codeActions(params, context);
    expect(actions.some((action) => action.kind === FIX_ALL_KIND)).toBe(false);
    expect(byTitle(actions, 'Listen on 8443 instead (unsafe)')).toBeDefined();
  });

  it('are left out of fix-all-in-workspace', async () => {
    const { file, options } = await setUp(unsafePort, timeoutAfterListen);
    const files = await fixFiles([{ path: file, text: TEXT }], options, () => true);
    expect(files).toHaveLength(1);
    expect(files[0]!.edits.map((edit) => edit.newText).join('')).not.toContain('8443');
  });

  it('keep a title that already says it', () => {
    expect(unsafeTitle('Send X-Real-IP to fonts.gstatic.com (unsafe: third party)')).toBe(
      'Send X-Real-IP to fonts.gstatic.com (unsafe: third party)',
    );
    expect(unsafeTitle('Pin DNS')).toBe('Pin DNS (unsafe)');
  });
});

describe('diagnostics: headline, with detail and withheld reason as related information', () => {
  const document = TextDocument.create('file:///x/site.conf', 'nginx', 1, TEXT);
  const base: Finding = {
    ruleId: 'upstream-keepalive',
    severity: 'warning',
    message: 'add keepalive 16;',
    file: '/x/site.conf',
    span: { start: { line: 1, column: 2 }, end: { line: 1, column: 8 }, startOffset: 11, endOffset: 17 },
  };
  const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } };

  it('keeps the message to the headline and puts the rest at the finding\'s own place', () => {
    const diagnostic = toDiagnostic({ ...base, detail: 'every request opens a connection', withheld: 'include x.conf unreadable' }, document);
    expect(diagnostic.message).toBe('add keepalive 16;');
    expect(diagnostic.relatedInformation).toEqual([
      { location: { uri: document.uri, range }, message: 'every request opens a connection' },
      { location: { uri: document.uri, range }, message: 'No fix offered: include x.conf unreadable' },
    ]);
  });

  it('has no related information when there is nothing more to say', () => {
    expect(toDiagnostic(base, document).relatedInformation).toBeUndefined();
  });
});
