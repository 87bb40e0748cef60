// A repository holding an /etc/nginx as it is installed (issue 25): nginx.conf includes `/etc/nginx/conf.d/*.conf` and
// `/etc/nginx/sites-enabled/*` by absolute path, with conf.d/ and sites-enabled/ beside it. The main config's
// directory is nginx's configuration prefix, so those includes are its own conf.d/ and sites-enabled/ (model/
// includes.ts asInstalled): a site is judged under the http{} that includes it, and what a sibling conf.d file sets at
// http level (fastcgi_keep_conn, proxy_http_version, the Connection header) counts there, as nginx reads it. The
// language server, analyzing the folder as `check .` does, says the same.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, TextDocumentEdit } from 'vscode-languageserver-protocol';
import { applyEdits, LspClient } from '../support/lsp-client.js';
import { checkRuleLines, useTempTrees } from './helpers.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const NGINX_CONF = 'events {}\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n    include /etc/nginx/sites-enabled/*;\n}\n';

/** The layout, with sites-enabled/app linking to ../sites-available/app as Debian's tools make it. */
function installed(files: Record<string, string>, site: string): string {
  const root = tree({ 'nginx.conf': NGINX_CONF, ...files, 'sites-available/app': site });
  mkdirSync(path.join(root, 'sites-enabled'));
  symlinkSync('../sites-available/app', path.join(root, 'sites-enabled/app'));
  return root;
}

const FASTCGI_SITE = 'server {\n    listen 80;\n    location ~ \\.php$ {\n        fastcgi_pass php;\n    }\n}\n';
const FPM_UPSTREAM = 'upstream php {\n    server unix:/run/php/php8.2-fpm.sock;\n    keepalive 8;\n}\n';
const PROXY_SITE = 'server {\n    listen 80;\n    location / {\n        proxy_pass http://app;\n    }\n}\n';
const APP_UPSTREAM = 'upstream app {\n    server 127.0.0.1:8080;\n    keepalive 16;\n}\n';

describe('check . on an installed /etc/nginx layout', () => {
  it('counts fastcgi_keep_conn set at http level by a sibling conf.d file', () => {
    const root = installed({ 'conf.d/upstreams.conf': FPM_UPSTREAM, 'conf.d/fastcgi.conf': 'fastcgi_keep_conn on;\n' }, FASTCGI_SITE);
    expect(checkRuleLines(root, ['.'])).toEqual({ 'conf.d/fastcgi.conf': [], 'conf.d/upstreams.conf': [], 'nginx.conf': [], 'sites-available/app': [] });
    // Without it, the site's pass is reported (under the name check keeps for the linked file).
    const without = installed({ 'conf.d/upstreams.conf': FPM_UPSTREAM }, FASTCGI_SITE);
    expect(checkRuleLines(without, ['.'])['sites-available/app']).toEqual(['fastcgi-keep-conn@4']);
  });

  it('counts proxy_http_version and a cleared Connection header set at http level by a sibling conf.d file', () => {
    const proxy = 'proxy_http_version 1.1;\nproxy_set_header Connection "";\n';
    const root = installed({ 'conf.d/upstreams.conf': APP_UPSTREAM, 'conf.d/proxy.conf': proxy }, PROXY_SITE);
    expect(checkRuleLines(root, ['.'])['sites-available/app']).toEqual([]);
    const without = installed({ 'conf.d/upstreams.conf': APP_UPSTREAM }, PROXY_SITE);
    expect(checkRuleLines(without, ['.'])['sites-available/app']).toEqual(['connection-header-missing@4', 'proxy-http-version@4']);
  });

  it('leaves an absolute include outside when the tree has nothing there, and says so', () => {
    const root = tree({ 'nginx.conf': NGINX_CONF, 'site.conf': PROXY_SITE + APP_UPSTREAM.replace('keepalive 16;\n', '') });
    expect(checkRuleLines(root, ['.'])['nginx.conf']).toEqual(['include@3', 'include@4']);
  });

  it('the language server shows the same for the open site, under the link or its target', async () => {
    const root = installed({ 'conf.d/upstreams.conf': FPM_UPSTREAM, 'conf.d/fastcgi.conf': 'fastcgi_keep_conn on;\n' }, FASTCGI_SITE);
    const client = await LspClient.start({ workspace: root });
    for (const name of ['sites-enabled/app', 'sites-available/app']) {
      const document = client.open(path.join(root, name), FASTCGI_SITE);
      expect((await client.diagnosticsFor(document.uri, document.version)).diagnostics).toEqual([]);
      client.close(document.uri);
    }
    const without = installed({ 'conf.d/upstreams.conf': FPM_UPSTREAM }, FASTCGI_SITE);
    const other = await LspClient.start({ workspace: without });
    const document = other.open(path.join(without, 'sites-enabled/app'), FASTCGI_SITE);
    const codes = (await other.diagnosticsFor(document.uri, document.version)).diagnostics.map((diagnostic) => diagnostic.code);
    expect(codes).toEqual(['fastcgi-keep-conn']);
  });

  it("fixes an open link in its own buffer (the fix is computed for its target's name)", async () => {
    const root = installed({ 'conf.d/upstreams.conf': FPM_UPSTREAM }, FASTCGI_SITE);
    const client = await LspClient.start({ workspace: root });
    const document = client.open(path.join(root, 'sites-enabled/app'), FASTCGI_SITE);
    const { diagnostics } = await client.diagnosticsFor(document.uri, document.version);
    const range = diagnostics[0]!.range;
    const context = { diagnostics, only: ['quickfix'] };
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: document.uri }, range, context });
    const fix = actions.find((action) => action.isPreferred)!;
    const changes = fix.edit!.documentChanges as TextDocumentEdit[];
    expect(changes.map((change) => [change.textDocument.uri, change.textDocument.version])).toEqual([[document.uri, document.version]]);
    expect(applyEdits(FASTCGI_SITE, changes[0]!.edits)).toContain('fastcgi_keep_conn on;\n        fastcgi_pass php;');

    // Fix all in the file (on save), run on the folder's documents as the diagnostics were.
    const all = { diagnostics: [], only: ['source.fixAll.nginx-keepalive'] };
    const [fixAll] = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: document.uri }, range, context: all });
    const allChanges = fixAll!.edit!.documentChanges as TextDocumentEdit[];
    expect(allChanges.map((change) => change.textDocument.uri)).toEqual([document.uri]);
    expect(applyEdits(FASTCGI_SITE, allChanges[0]!.edits)).toContain('fastcgi_keep_conn on;\n        fastcgi_pass php;');
  });
});
