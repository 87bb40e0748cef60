// A document whose analysis is slow (a long template parsed whole when it is opened) must not hold up the others: the
// server parses it in slices in the background (lsp/analysis-service.ts), and hover, completion and diagnostics for
// another document are answered meanwhile. Asserted by order, not by time: everything about B arrives before A's
// diagnostics, which on a server analyzing A in one stretch come first.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

/** About 300 KB of Go template: the text reader declines it, so opening it parses it whole (a few hundred ms). */
function longTemplate(): string {
  const servers = Array.from({ length: 4_500 }, (_, i) => `  server { listen ${1 + i}; location / { proxy_pass http://app{{ .X }}; } }\n`);
  return `http {\n  upstream app { server 127.0.0.1:8080; }\n${servers.join('')}}\n`;
}

const SMALL = 'http {\n  upstream b { server 127.0.0.1:8081; }\n  server {\n    location / { proxy_pass http://b; }\n  }\n}\n';

describe('a slow document', () => {
  it('does not hold up hover, completion and diagnostics for another document', async () => {
    const dir = tree({});
    const client = await LspClient.start({ workspace: dir });
    const events: string[] = [];
    const a = client.open(path.join(dir, 'a.conf.sigil'), longTemplate());
    const b = client.open(path.join(dir, 'b.conf'), SMALL);
    const aDiagnostics = client.diagnosticsFor(a.uri, a.version).then(() => events.push('A diagnostics'));
    const bDiagnostics = client.diagnosticsFor(b.uri, b.version).then(() => events.push('B diagnostics'));
    const position = { line: 3, character: 20 }; // on proxy_pass
    const hover = client.request('textDocument/hover', { textDocument: { uri: b.uri }, position }).then((answer) => {
      events.push('B hover');
      return answer;
    });
    const completion = client.request('textDocument/completion', { textDocument: { uri: b.uri }, position: { line: 3, character: 31 } }).then(() => events.push('B completion'));
    expect(await hover).toMatchObject({ contents: expect.anything() });
    await Promise.all([aDiagnostics, bDiagnostics, completion]);
    expect(events.at(-1)).toBe('A diagnostics');
    expect(events.slice(0, -1).sort()).toEqual(['B completion', 'B diagnostics', 'B hover']);
    // A was analyzed in full all the same: one finding per server on the keepalive-less upstream is not what counts
    // here, only that its diagnostics came.
    expect(client.latestDiagnostics(a.uri)?.diagnostics.length).toBeGreaterThan(0);
  });
});
