// Cancelling nginx-keepalive.fixAllInWorkspace: before the edit is sent, the command stops and is answered as
// cancelled, with no workspace/applyEdit; once the edit is sent, the answer says what it changed, even when the
// cancellation comes in while the client applies it (it used to answer "request cancelled" after every file was
// edited). Over real stdio; the waits end on the server's own messages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const BROKEN = readFileSync(path.join(FIXTURES_DIR, 'upstream-keepalive/invalid-balancer-last.conf'), 'utf8');
const COMMAND = 'nginx-keepalive.fixAllInWorkspace';

it('reports the edit it sent when the cancellation arrives while the client applies it', async () => {
  const client = await LspClient.start({ workspace: tree({ 'nginx.conf': BROKEN }) });
  const source = new CancellationTokenSource();
  // The cancellation is written before the applyEdit answer, so the server reads it first.
  client.answerApplyEdit = () => {
    source.cancel();
    return { applied: true };
  };
  const answer = await client.request('workspace/executeCommand', { command: COMMAND }, source.token);
  expect(client.appliedEdits).toHaveLength(1);
  expect(answer).toEqual({ files: 1, fixes: 1 });
});

it('sends no edit when the cancellation arrives with the request', async () => {
  const client = await LspClient.start({ workspace: tree({ 'nginx.conf': BROKEN }) });
  const request = LspClient.frame({ id: 'fix-all-1', method: 'workspace/executeCommand', params: { command: COMMAND } });
  const cancel = LspClient.frame({ method: '$/cancelRequest', params: { id: 'fix-all-1' } });
  const response = client.waitForRawResponse('fix-all-1');
  client.writeRaw(request + cancel);
  expect((await response).error).toMatchObject({ code: -32800, message: 'request cancelled' });
  // Any applyEdit would have come before the answer: one more round trip and the client has seen all of them.
  await client.request('nginxKeepalive/stats');
  expect(client.appliedEdits).toEqual([]);
});
