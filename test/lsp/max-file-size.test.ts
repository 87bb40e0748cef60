// nginxKeepalive.maxFileSize changed while a document is open: the files it includes are read under the limit in
// force, so raising the limit leaves nothing of the "too large" reading behind (the model store kept the model built
// under the low limit, and the document's findings were those of an include it could not read).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const MAIN = 'events {}\nhttp {\n    include site.conf;\n    server { location / { proxy_pass http://app; } }\n}\n';
/** Longer than the low limit (300 characters). */
const SITE = `${'# filler\n'.repeat(40)}upstream app { server 127.0.0.1:3000; keepalive 8; }\n`;

const described = (params: PublishDiagnosticsParams) => params.diagnostics.map((d) => `${String(d.code)}@${d.range.start.line + 1}: ${d.message}`);

async function diagnosticsOfMain(dir: string, settings: Record<string, unknown>) {
  const client = await LspClient.start({ workspace: dir, settings });
  const doc = client.open(path.join(dir, 'nginx.conf'), MAIN);
  return { client, doc, first: described(await client.diagnosticsFor(doc.uri, doc.version)) };
}

describe('maxFileSize raised while a document with an include is open', () => {
  it('gives the findings a server started with the raised limit gives', async () => {
    const dir = tree({ 'nginx.conf': MAIN, 'site.conf': SITE });
    const expected = (await diagnosticsOfMain(dir, {})).first;
    // With site.conf readable the pass goes to `upstream app`: no literal-address finding.
    expect(expected.join('\n')).not.toContain('proxy-pass-no-upstream');
    const { client, doc, first } = await diagnosticsOfMain(dir, { maxFileSize: 300 });
    expect(first).not.toEqual(expected);
    client.setSettings({});
    // Before the fix the low limit's reading stayed until the document was edited: this waited forever.
    const raised = await client.waitForDiagnostics(doc.uri, (params) => JSON.stringify(described(params)) === JSON.stringify(expected));
    expect(described(raised)).toEqual(expected);
  }, 30_000);
});
