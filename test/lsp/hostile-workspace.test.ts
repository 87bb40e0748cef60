// Workspaces built to stall or mislead the language server (issue 10, items 3, 4 and 12): links to /dev/zero and to
// FIFOs, links leading out of the workspace folder, and include globs over links that make a tree look exponentially
// large. The server keeps publishing diagnostics (a hang fails by the test timeout), reads nothing that is not a
// regular file inside the folder, and names the links it did not follow.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const ORDINARY = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';
const codes = (diagnostics: Array<{ code?: unknown }>) => diagnostics.map((d) => String(d.code)).sort();

describe('devices and FIFOs in the workspace', () => {
  it('are never read: links to /dev/zero and to a FIFO, and a FIFO itself, do not stop the diagnostics', async () => {
    // The FIFO is included in a server of its own: the other server's pass stays readable, so fix-all has a fix.
    const dir = tree({ 'nginx.conf': `${ORDINARY.slice(0, -2)}  server { include pipe.conf; }\n}\n` });
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    execFileSync('mkfifo', [path.join(dir, 'direct.tmpl')]);
    // Template names are sniffed (read) to decide whether they are nginx: reading these would never end.
    symlinkSync('/dev/zero', path.join(dir, 'evil.tmpl'));
    symlinkSync('fifo', path.join(dir, 'pipe.sigil'));
    symlinkSync('fifo', path.join(dir, 'pipe.conf'));
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf'), readFileSync(path.join(dir, 'nginx.conf'), 'utf8'));
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    // The include of the FIFO is reported as unreadable, not waited on.
    expect(codes(published.diagnostics)).toEqual(['include', 'upstream-keepalive']);
    expect(published.diagnostics.find((d) => d.code === 'include')!.message).toContain('cannot be read');
    // Fix all in the workspace lists and reads the workspace files again: it answers too.
    expect(await client.request('workspace/executeCommand', { command: 'nginx-keepalive.fixAllInWorkspace' })).toMatchObject({ files: 1 });
  });
});

describe('links leading out of the workspace folder', () => {
  // nginx.conf sets proxy_http_version 1.0 and clears Connection at http level, then includes sites/*.conf.
  const CASE = path.join(FIXTURES_DIR, 'proxy-http-version/invalid-included.d');
  const MAIN = readFileSync(path.join(CASE, 'nginx.conf'), 'utf8');
  const SITE = readFileSync(path.join(CASE, 'sites/app.conf'), 'utf8');

  async function siteDiagnostics(dir: string, client: LspClient) {
    const site = client.open(path.join(dir, 'sites/app.conf'), SITE);
    return codes((await client.diagnosticsFor(site.uri, site.version)).diagnostics);
  }

  it('are not indexed: a linked-in includer outside does not decide how a workspace file is analyzed', async () => {
    const alone = tree({ 'sites/app.conf': SITE });
    const expected = await siteDiagnostics(alone, await LspClient.start({ workspace: alone }));

    const outside = tree({ 'nginx.conf': MAIN });
    const dir = tree({ 'sites/app.conf': SITE });
    symlinkSync(path.join(outside, 'nginx.conf'), path.join(dir, 'nginx.conf'));
    const client = await LspClient.start({ workspace: dir });
    // Followed, the includer outside would put the site in its context (only proxy-http-version, see cross-file).
    expect(await siteDiagnostics(dir, client)).toEqual(expected);
    expect(expected).not.toEqual(['proxy-http-version']);
    const logged = client.logs.map((log) => log.message).filter((message) => message.includes('not following'));
    expect(logged).toEqual([expect.stringContaining(path.join(dir, 'nginx.conf'))]);
  });
});

describe('include globs over symbolic links', () => {
  it('ten links to "." under seven wildcards do not stall the diagnostics of the file or of others', async () => {
    const dir = tree({
      'nginx.conf': 'events {}\nhttp {\n  include */*/*/*/*/*/*/x.conf;\n}\n',
      'd/x.conf': 'upstream u { server 127.0.0.1:1; }\n',
      'other.conf': ORDINARY,
    });
    for (let i = 0; i < 10; i++) symlinkSync('.', path.join(dir, `d/l${i}`));
    const client = await LspClient.start({ workspace: dir });
    const other = client.open(path.join(dir, 'other.conf'), ORDINARY);
    const main = client.open(path.join(dir, 'nginx.conf'), readFileSync(path.join(dir, 'nginx.conf'), 'utf8'));
    expect(codes((await client.diagnosticsFor(other.uri, other.version)).diagnostics)).toEqual(['upstream-keepalive']);
    // The included file's finding is its own (not published for the closed file); the includer has none.
    expect(codes((await client.diagnosticsFor(main.uri, main.version)).diagnostics)).toEqual([]);
  });
});
