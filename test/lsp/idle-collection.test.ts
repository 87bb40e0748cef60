// Once typing in a large document pauses, the server collects its garbage (lsp/idle-collection.ts): V8 alone kept
// what the keystrokes' analyses left behind (the server's RSS stayed ~190 MB with a 1 MB document open, ~33 MB of it
// live). Over real stdio: type into a large document, then wait for the collection the pause brings.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleCollection } from '../../server/src/lsp/idle-collection.js';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

interface Stats {
  heapUsedBytes: number;
  idleCollections: number;
}

/** About `bytes` of upstreams and proxied servers, each of one line per directive. */
function largeConfig(bytes: number): string {
  const out = ['http {'];
  for (let index = 0, size = 0; size < bytes; index++) {
    const app = [
      `  upstream app_${index} {`,
      `    server 127.0.0.1:${3000 + (index % 1000)};`,
      '    keepalive 16;',
      '  }',
      '  server {',
      `    server_name app-${index}.example.com;`,
      '    location / {',
      `      proxy_pass http://app_${index};`,
      '    }',
      '  }',
    ];
    out.push(...app);
    size += app.join('\n').length + 1;
  }
  out.push('}', '');
  return out.join('\n');
}

const stats = (client: LspClient) => client.request<Stats>('nginxKeepalive/stats');

/** The stats once more than `before` collections ran (or at the deadline: a collection may have come in a pause before). */
async function whenCollected(client: LspClient, before: number, deadlineMs: number): Promise<Stats> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const now = await stats(client);
    if (now.idleCollections > before || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('collection when typing pauses', () => {
  it('collects the garbage of a large document’s analyses once typing pauses, and goes on serving it', async () => {
    const dir = tree({});
    const client = await LspClient.start({ workspace: dir });
    const text = largeConfig(600_000);
    const doc = client.open(path.join(dir, 'large.conf'), text);
    await client.diagnosticsFor(doc.uri, doc.version);
    // Typing in a server_name, a character in and out again, each keystroke's diagnostics awaited.
    const line = text.split('\n').indexOf('    server_name app-700.example.com;');
    const at = { line, character: '    server_name app-700'.length };
    // The heap in use after each (a machine under load may pause long enough for a collection in between).
    let mostInUse = 0;
    let collections = 0;
    for (let keystroke = 0; keystroke < 12; keystroke++) {
      const range = keystroke % 2 === 0 ? { start: at, end: at } : { start: at, end: { line, character: at.character + 1 } };
      const version = client.change(doc.uri, [{ range, text: keystroke % 2 === 0 ? 'x' : '' }]);
      await client.diagnosticsFor(doc.uri, version);
      const after = await stats(client);
      mostInUse = Math.max(mostInUse, after.heapUsedBytes);
      collections = after.idleCollections;
    }
    const collected = await whenCollected(client, collections, 10_000);
    expect(collected.idleCollections).toBeGreaterThan(0);
    expect(collected.heapUsedBytes).toBeLessThan(mostInUse);
    // The document is served as before: the next keystroke gets its diagnostics.
    const next = client.change(doc.uri, [{ range: { start: at, end: at }, text: 'y' }]);
    expect((await client.diagnosticsFor(doc.uri, next)).version).toBe(next);
  }, 60_000);
});

describe("the collector's V8 flag", () => {
  it('is unset again once the collector is made: a code cache written after a collection fits a fresh process', () => {
    // The loader (scripts/cli-loader.mjs) writes the server's code cache at exit, or after 10 s: often after a
    // collection. V8 stamps a cache with a hash of its flags, and a fresh process rejects one stamped with others.
    const dir = tree({});
    const source = 'function answer() { return 42; } answer();';
    /** Whether a fresh node accepts the code cache of `source` made now, in this process. */
    const acceptedByFreshProcess = (name: string): boolean => {
      const file = path.join(dir, name);
      writeFileSync(file, new Script(source, { filename: name }).createCachedData());
      const check = `const d = require('node:fs').readFileSync(${JSON.stringify(file)}); ` +
        `process.stdout.write(String(new (require('node:vm').Script)(${JSON.stringify(source)}, { cachedData: d }).cachedDataRejected));`;
      return execFileSync(process.execPath, ['-e', check], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }) === 'false';
    };
    // Made before any collection, as a check on the test: this process's flags are a fresh node's.
    expect(acceptedByFreshProcess('before.bin')).toBe(true);
    vi.useFakeTimers();
    try {
      // No delay, no growth needed: the first pause collects.
      const collection = new IdleCollection(0, 0);
      collection.quiet();
      vi.runAllTimers();
      expect(collection.collections).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    expect(acceptedByFreshProcess('after.bin')).toBe(true);
  });
});
