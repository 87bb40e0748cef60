// Completion and directive hover over a real stdio connection to the built server: the capability with its trigger
// characters, directives of the cursor's context in a snippet included from a location (as snippets only for a
// client that takes them), documentation filled in by completionItem/resolve, upstream names, variables, and the
// table's hover on any directive.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const MAIN = `events {}
http {
    upstream backend {
        server 127.0.0.1:3000;
        keepalive 16;
    }
    server {
        listen 80;
        location / {
            include snippets/proxy.conf;
        }
    }
}
`;

const SNIPPET = `proxy_http_version 1.1;
sendfile on;

proxy_pass http://b
`;

function positionOf(text: string, needle: string, delta = 0) {
  const offset = text.indexOf(needle) + delta;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
}

async function openSnippet(completionSnippets: boolean) {
  const dir = tree({ 'nginx.conf': MAIN, 'snippets/proxy.conf': SNIPPET });
  const client = await LspClient.start({ workspace: dir, completionSnippets });
  const main = client.open(path.join(dir, 'nginx.conf'), MAIN);
  const doc = client.open(path.join(dir, 'snippets/proxy.conf'), SNIPPET);
  const complete = (position: { line: number; character: number }, triggerCharacter?: string) =>
    client.request<CompletionList | null>('textDocument/completion', {
      textDocument: { uri: doc.uri },
      position,
      context: triggerCharacter ? { triggerKind: 2, triggerCharacter } : { triggerKind: 1 },
    });
  return { client, doc, main, complete };
}

const byLabel = (list: CompletionList | null, label: string) => list!.items.find((item) => item.label === label);

describe('completion over stdio', () => {
  it('advertises completion with $, space and / as triggers and a resolve provider', async () => {
    const { client } = await openSnippet(true);
    expect(client.initializeResult.capabilities.completionProvider).toEqual({ triggerCharacters: ['$', ' ', '/'], resolveProvider: true });
  });

  it('offers location directives in a snippet included from a location, as snippets, documented on resolve', async () => {
    const { client, complete } = await openSnippet(true);
    const list = await complete({ line: 2, character: 0 });
    expect(list!.isIncomplete).toBe(false);
    const proxyPass = byLabel(list, 'proxy_pass')!;
    expect(proxyPass.kind).toBe(10); // Property
    expect(proxyPass.insertTextFormat).toBe(2); // Snippet
    expect(proxyPass.textEdit).toEqual({ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, newText: 'proxy_pass $0;' });
    expect(byLabel(list, 'location')!.textEdit!.newText).toBe('location ${1:/} {\n\t$0\n}');
    expect(byLabel(list, 'listen')).toBeUndefined();
    expect(byLabel(list, 'worker_processes')).toBeUndefined();
    expect(proxyPass.documentation).toBeUndefined();
    const resolved = await client.request<CompletionItem>('completionItem/resolve', proxyPass);
    const documentation = resolved.documentation as MarkupContent;
    expect(documentation.kind).toBe('markdown');
    expect(documentation.value).toContain('https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass');
  });

  it('inserts plain words for a client without snippets', async () => {
    const { complete } = await openSnippet(false);
    const item = byLabel(await complete({ line: 2, character: 0 }), 'location')!;
    expect(item.insertTextFormat).toBe(1);
    expect(item.textEdit!.newText).toBe('location');
  });

  it('offers the keepalive snippets only where their block is allowed', async () => {
    const { client, main, complete } = await openSnippet(true);
    const inLocation = byLabel(await complete({ line: 2, character: 0 }), 'location-keepalive')!;
    expect(inLocation.kind).toBe(15); // Snippet
    expect(inLocation.insertTextFormat).toBe(2);
    expect(inLocation.textEdit!.newText).toContain('location ${1:/} {\n\tproxy_http_version 1.1;');
    const labelsAt = async (line: number) =>
      (await client.request<CompletionList | null>('textDocument/completion', {
        textDocument: { uri: main.uri },
        position: { line, character: 0 },
        context: { triggerKind: 1 },
      }))!.items.map((item) => item.label);
    // Line 0 is the top level (`events {}` follows), line 2 is in http, line 7 in the server.
    const top = await labelsAt(0);
    expect(top).toContain('events');
    expect(top.filter((label) => label.includes('-keepalive') || label === 'map-connection-upgrade')).toEqual([]);
    expect(await labelsAt(2)).toEqual(expect.arrayContaining(['upstream-keepalive', 'map-connection-upgrade']));
    expect(await labelsAt(2)).not.toContain('location-keepalive');
    expect(await labelsAt(7)).toContain('location-keepalive');
  });

  it('offers the upstream after proxy_pass http://, and flag words after a space', async () => {
    const { complete } = await openSnippet(true);
    const upstreams = await complete(positionOf(SNIPPET, 'http://b', 'http://b'.length));
    const backend = byLabel(upstreams, 'backend')!;
    expect(backend.textEdit).toEqual({ range: { start: positionOf(SNIPPET, 'http://b', 7), end: positionOf(SNIPPET, 'http://b', 8) }, newText: 'backend' });
    expect((backend.documentation as MarkupContent).value).toContain('keepalive: `keepalive 16;`');
    const flags = await complete(positionOf(SNIPPET, 'sendfile ', 'sendfile '.length), ' ');
    expect(flags!.items.map((item) => item.label)).toEqual(['on', 'off']);
    // A space typed as indentation asks for nothing: no list of every directive pops up.
    expect((await complete({ line: 2, character: 0 }, ' '))!.items).toEqual([]);
  });

  it('hovers any directive with the table reference, next to the keepalive hovers', async () => {
    const { client, doc } = await openSnippet(true);
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: doc.uri }, position: positionOf(SNIPPET, 'sendfile', 2) });
    const value = (hover!.contents as MarkupContent).value;
    expect(value).toContain('**sendfile** · `ngx_http_core_module`');
    expect(value).toContain('(https://nginx.org/en/docs/http/ngx_http_core_module.html#sendfile)');
    // nginx.org's syntax line and first paragraph: the built server reads them from dist/nginx-docs.json on first use.
    expect(value).toContain('sendfile on | off;');
    expect(value).toContain('Enables or disables the use of sendfile.');
    expect(hover!.range).toEqual({ start: positionOf(SNIPPET, 'sendfile'), end: positionOf(SNIPPET, 'sendfile', 8) });
  });

  it('answers an empty list where nothing fits and null for a document not open, without failing', async () => {
    const { client, complete } = await openSnippet(true);
    // Past the end: a second argument of the unfinished `proxy_pass http://b`, which takes one.
    expect((await complete({ line: 99, character: 0 }))!.items).toEqual([]);
    const none = await client.request<CompletionList | null>('textDocument/completion', {
      textDocument: { uri: 'file:///nowhere/x.conf' },
      position: { line: 0, character: 0 },
    });
    expect(none).toBeNull();
    const bogus = await client.request<CompletionItem>('completionItem/resolve', { label: 'x', data: { uri: 'file:///nowhere', reference: { variable: 5 } } });
    expect(bogus.label).toBe('x');
  });

  it('offers parameters as one types a space after an argument, but nothing for a space in a comment or a string', async () => {
    const site = 'server {\n    listen 80 \n    # listen 80 \n    add_header X "a \n}\n';
    const dir = tree({ 'sites-enabled/app.conf': site });
    const client = await LspClient.start({ workspace: dir, completionSnippets: true });
    const doc = client.open(path.join(dir, 'sites-enabled/app.conf'), site);
    const typed = (line: number, character: number) =>
      client.request<CompletionList | null>('textDocument/completion', {
        textDocument: { uri: doc.uri },
        position: { line, character },
        context: { triggerKind: 2, triggerCharacter: ' ' },
      });
    const listen = (await typed(1, '    listen 80 '.length))!.items.map((item) => item.label);
    expect(listen).toEqual(expect.arrayContaining(['default_server', 'ssl', 'http2', 'reuseport']));
    expect((await typed(2, '    # listen 80 '.length))!.items).toEqual([]);
    expect((await typed(3, '    add_header X "a '.length))!.items).toEqual([]);
  });

  it("offers upstreams of the workspace's other files after proxy_pass http:// as the slash is typed", async () => {
    const upstreams = 'upstream shop {\n    server 127.0.0.1:3000;\n    keepalive 16;\n}\n';
    const site = 'server {\n    listen 80;\n    location / {\n        proxy_pass http://\n    }\n}\n';
    const main = 'events {}\nhttp {\n    include sites-enabled/*.conf;\n}\n';
    // nginx.conf makes the site's unit its include graph; the upstream file is in the workspace but not in that graph.
    const dir = tree({ 'nginx.conf': main, 'conf.d/upstreams.conf': upstreams, 'sites-enabled/app.conf': site });
    const client = await LspClient.start({ workspace: dir, completionSnippets: true });
    const doc = client.open(path.join(dir, 'sites-enabled/app.conf'), site);
    const list = await client.request<CompletionList | null>('textDocument/completion', {
      textDocument: { uri: doc.uri },
      position: { line: 3, character: '        proxy_pass http://'.length },
      context: { triggerKind: 2, triggerCharacter: '/' },
    });
    const shop = byLabel(list, 'shop')!;
    expect(shop.textEdit!.newText).toBe('shop');
    expect((shop.documentation as MarkupContent).value).toContain('keepalive: `keepalive 16;`');
  });

  it("hovers keepalive with nginx.org's syntax line and the default of the nginx the settings assume", async () => {
    const site = 'upstream app {\n    server 127.0.0.1:3000;\n    keepalive 16;\n}\n';
    const hoverWith = async (settings: Record<string, unknown>) => {
      const dir = tree({ 'conf.d/app.conf': site });
      const client = await LspClient.start({ workspace: dir, settings });
      const doc = client.open(path.join(dir, 'conf.d/app.conf'), site);
      const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: doc.uri }, position: { line: 2, character: 6 } });
      return (hover!.contents as MarkupContent).value;
    };
    const old = await hoverWith({});
    expect(old).toContain('```nginx\nkeepalive connections [local];\n```');
    expect(old).toContain('- Default: none in nginx 1.29.6');
    expect(old).toContain('`local` 1.29.7 (**not in nginx 1.29.6**)');
    const modern = await hoverWith({ nginxVersion: '1.30.0' });
    expect(modern).toContain('- Default: `keepalive 32 local;` in nginx 1.30.0');
  });
});
