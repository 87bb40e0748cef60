// How soon an opened document's first diagnostics come (issue 30). The server asks the client for its registrations
// and settings at once, not each after the previous answer (three round trips in turn with VS Code). And the
// diagnostics go out before the workspace pass analyzes the files beside the document: vscode-jsonrpc writes a
// message a few event-loop turns after it is sent, and a workspace unit analyzed right after the document's analysis,
// in one stretch, held the message back until it ended (300 ms of bench/lsp-latency.mjs's cold start, for a 1 MB file
// beside the document). Nothing the client can send is answered during that stretch, so the order of messages cannot
// tell; the server's CPU time can, and unlike wall time it does not grow with the load of the machine: when the
// document's diagnostics were written first, the large file's analysis is spent between them and the large file's
// diagnostics; when they were held back, it was spent before them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const SMALL = 'events {}\nhttp {\n  upstream b { server 127.0.0.1:8081; }\n  server {\n    location / { proxy_pass http://b; }\n  }\n}\n';

/** About 600 KB of servers (most of a second of CPU to analyze): over the folder bound, so it is a unit of its own. */
function largeConfig(): string {
  const blocks = Array.from({ length: 3_000 }, (_, i) =>
    `  upstream app_${i} {\n    server 127.0.0.1:${3000 + (i % 1000)};\n  }\n  server {\n    listen ${8000 + (i % 1000)};\n` +
    `    server_name app-${i}.example.com;\n    location / {\n      proxy_pass http://app_${i};\n    }\n  }\n`);
  return `events {}\nhttp {\n${blocks.join('')}}\n`;
}

/** User + system CPU time the process has used, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('the first diagnostics of an opened document', () => {
  it("wait for the client's answers to the start-up requests together, not one after another", async () => {
    const dir = tree({ 'small.conf': SMALL });
    const client = await LspClient.start({ workspace: dir });
    // Registrations are answered only once the settings were asked for (or after 5 s, so that a server asking in
    // turn fails this test instead of hanging it): a server waiting for each answer before the next request never
    // asks for the settings while a registration is unanswered.
    let configurationAsked!: () => void;
    const asked = new Promise<void>((resolve) => (configurationAsked = resolve));
    let unanswered = 0;
    let unansweredWhenAsked = -1;
    client.connection.onRequest('client/registerCapability', async () => {
      unanswered++;
      await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      unanswered--;
      return null;
    });
    client.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
      if (unansweredWhenAsked === -1) unansweredWhenAsked = unanswered;
      configurationAsked();
      return params.items.map(() => ({}));
    });
    const small = client.open(path.join(dir, 'small.conf'), SMALL);
    expect((await client.diagnosticsFor(small.uri, small.version)).diagnostics.length).toBeGreaterThan(0);
    // The file watchers' and the settings changes' registrations were both still unanswered.
    expect(unansweredWhenAsked).toBe(2);
  });

  it('are written before the workspace pass analyzes a large file beside it', async () => {
    const dir = tree({ 'large.conf': largeConfig(), 'small.conf': SMALL });
    const client = await LspClient.start({ workspace: dir });
    const pid = client.process.pid!;
    let cpuAtLarge = 0;
    const large = client.waitForDiagnostics(uriOf(path.join(dir, 'large.conf'))).then((params) => {
      cpuAtLarge = cpuMs(pid);
      return params;
    });
    const small = client.open(path.join(dir, 'small.conf'), SMALL);
    await client.diagnosticsFor(small.uri, small.version);
    const cpuAtSmall = cpuMs(pid);
    // The large file was analyzed all the same: one finding per upstream without keepalive, at least.
    expect((await large).diagnostics.length).toBeGreaterThanOrEqual(3_000);
    // Start-up and the small file cost a fraction of the large file's analysis (about 0.2 s against 0.8 s here).
    expect(cpuAtLarge - cpuAtSmall).toBeGreaterThan(cpuAtSmall);
  });
});
