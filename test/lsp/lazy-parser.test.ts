// The language server loads the wasm parser only when a text needs it (lsp/server.ts): a session of plain nginx
// files never loads tree-sitter, and the first document, include or workspace file the text reader declines loads it
// on the spot, with the same findings as `check`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

interface Stats {
  parserLoaded: boolean;
  liveTrees: number;
}

const UPSTREAM = 'events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n    }\n    include conf.d/*.conf;\n}\n';
/**
 * A template opener outside any Lua body (here in a comment): the text reader declines it, so only tree-sitter reads
 * this file. (A content_by_lua_block alone no longer does: the reader reads Lua bodies by extent, model/lua-body.ts.)
 */
const LUA_SITE =
  'server {\n    # rendered from {{ .TEMPLATE }}\n    listen 8000;\n    location / {\n        proxy_pass http://backend;\n    }\n' +
  '    location /lua {\n        content_by_lua_block {\n            ngx.say("hi")\n        }\n    }\n}\n';
const TEMPLATE = '{{ range .APPS }}\nhttp {\n    upstream {{ .NAME }} {\n        server 127.0.0.1:1;\n    }\n}\n{{ end }}\n';

/** What `nginx-keepalive check --format json` finds in `file` of `dir`: rule ids and lines. */
function checkFindings(dir: string, file: string): string[] {
  let output: string;
  try {
    output = execFileSync(process.execPath, [path.join(REPO_ROOT, 'dist/cli.js'), 'check', '--format', 'json', '.'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  const results = JSON.parse(output) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>;
  return results.find((result) => result.filePath === path.join(dir, file))!.messages.map((m) => `${m.ruleId}:${m.line}`);
}

const codesOf = (diagnostics: Array<{ code?: unknown; range: { start: { line: number } } }>) =>
  diagnostics.map((d) => `${String(d.code)}:${d.range.start.line + 1}`);

describe('the wasm parser, loaded when needed', () => {
  it('is not loaded for plain nginx documents, and is once a template is opened', async () => {
    const dir = tree({ 'nginx.conf': UPSTREAM.replace('    include conf.d/*.conf;\n', '') });
    const client = await LspClient.start({ workspace: dir });
    const plain = client.open(path.join(dir, 'nginx.conf'), UPSTREAM.replace('    include conf.d/*.conf;\n', ''));
    expect((await client.diagnosticsFor(plain.uri, plain.version)).diagnostics.map((d) => d.code)).toEqual(['upstream-keepalive']);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: false, liveTrees: 0 });

    const template = client.open(path.join(dir, 'app.conf.sigil'), TEMPLATE);
    const published = await client.diagnosticsFor(template.uri, template.version);
    expect(published.diagnostics.map((d) => d.code)).toEqual(['upstream-keepalive']);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: true, liveTrees: 1 });
  });

  it('is not loaded for a plain document\'s semantic tokens, and is for a template\'s', async () => {
    const text = `# upstreams\n${UPSTREAM.replace('    include conf.d/*.conf;\n', '    if ($host ~ "^a$") {\n        set $x "y$host";\n    }\n')}`;
    const dir = tree({ 'nginx.conf': text });
    const client = await LspClient.start({ workspace: dir });
    const plain = client.open(path.join(dir, 'nginx.conf'), text);
    const full = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: plain.uri } });
    const range = { start: { line: 4, character: 0 }, end: { line: 7, character: 0 } };
    const ranged = await client.request<{ data: number[] }>('textDocument/semanticTokens/range', { textDocument: { uri: plain.uri }, range });
    // The comment, the directive names, `$host`, the strings, `$x`, the number of `keepalive`-less server lines.
    expect(full.data.length / 5).toBeGreaterThan(10);
    expect(ranged.data.length).toBeGreaterThan(0);
    expect(ranged.data.length).toBeLessThan(full.data.length);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: false, liveTrees: 0 });

    const template = client.open(path.join(dir, 'app.conf.sigil'), TEMPLATE);
    const templated = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: template.uri } });
    expect(templated.data.length).toBeGreaterThan(0);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: true });
  });

  it('is loaded for a closed include the reader declines, and the findings are check\'s', async () => {
    const dir = tree({ 'nginx.conf': UPSTREAM, 'conf.d/app.conf': LUA_SITE });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf'), UPSTREAM);
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(codesOf(published.diagnostics)).toEqual(checkFindings(dir, 'nginx.conf'));
    expect(codesOf(published.diagnostics)).toEqual(['upstream-keepalive:3']);
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: true });
  });

  it('is loaded for a workspace file the reader declines, which gets check\'s findings', async () => {
    const site = `http {\n    upstream lua_backend {\n        server 127.0.0.1:1;\n    }\n${LUA_SITE.replace('backend', 'lua_backend')}}\n`;
    const dir = tree({ 'plain.conf': 'events {}\n', 'lua.conf': site });
    const client = await LspClient.start({ workspace: dir, settings: { diagnostics: 'workspace' } });
    const closed = await client.waitForDiagnostics(`file://${path.join(dir, 'lua.conf')}`, () => true);
    expect(codesOf(closed.diagnostics)).toEqual(checkFindings(dir, 'lua.conf'));
    expect(closed.diagnostics.map((d) => d.code)).toContain('upstream-keepalive');
    expect(await client.request<Stats>('nginxKeepalive/stats')).toMatchObject({ parserLoaded: true });
  });
});
