// The language features over a real stdio connection to the built server: hover, definition, references, document
// symbols and semantic tokens on opened documents, across an include.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentSymbol, Hover, Location, SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const MAIN = `events {}
http {
    upstream backend {
        server 127.0.0.1:3000;
        keepalive 16;
    }
    include conf.d/*.conf;
}
`;

const SITE = `server {
    listen 80;
    server_name example.com;
    location /api/ {
        proxy_set_header Host $host;
        proxy_pass http://backend;
    }
}
`;

/** The LSP position of the first `needle` in `text`, `delta` characters in. */
function positionOf(text: string, needle: string, delta = 0) {
  const offset = text.indexOf(needle) + delta;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
}

async function openSite() {
  const dir = tree({ 'nginx.conf': MAIN, 'conf.d/site.conf': SITE });
  const client = await LspClient.start({ workspace: dir });
  const doc = client.open(path.join(dir, 'conf.d/site.conf'), SITE);
  return { dir, client, doc };
}

describe('language features over stdio', () => {
  it('advertises hover, definition, references, symbols and a semantic token legend', async () => {
    const { client } = await openSite();
    const capabilities = client.initializeResult.capabilities;
    expect(capabilities.hoverProvider).toBe(true);
    expect(capabilities.definitionProvider).toBe(true);
    expect(capabilities.referencesProvider).toBe(true);
    expect(capabilities.documentSymbolProvider).toBe(true);
    expect(capabilities.semanticTokensProvider?.legend.tokenTypes).toContain('macro');
    expect(capabilities.semanticTokensProvider?.full).toBe(true);
  });

  it('hovers a proxy_pass target with the upstream of the including file and why nothing is reused', async () => {
    const { client, doc } = await openSite();
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: positionOf(SITE, 'http://backend', 9),
    });
    const value = (hover!.contents as { kind: string; value: string }).value;
    expect((hover!.contents as { kind: string }).kind).toBe('markdown');
    expect(value).toContain('**upstream `backend`** · nginx.conf:3');
    expect(value).toContain('servers: `127.0.0.1:3000`');
    expect(value).toContain('**Connections reused from location /api/: no**');
    expect(value).toContain('- ✓ **keepalive**: `keepalive 16;` (nginx.conf:5)');
    expect(value).toMatch(/✗ \*\*Connection header\*\*: the headers in effect are set on location \/api\/ and include no Connection/);
    expect(hover!.range).toEqual({ start: positionOf(SITE, 'http://backend'), end: positionOf(SITE, 'http://backend', 14) });
  });

  it('goes to the upstream in the other file and finds its references', async () => {
    const { dir, client, doc } = await openSite();
    const position = positionOf(SITE, 'http://backend', 10);
    const definitions = await client.request<Location[]>('textDocument/definition', { textDocument: { uri: doc.uri }, position });
    const declaration = { uri: uriOf(path.join(dir, 'nginx.conf')), range: { start: positionOf(MAIN, 'backend'), end: positionOf(MAIN, 'backend', 7) } };
    expect(definitions).toEqual([declaration]);
    const use = { uri: doc.uri, range: { start: positionOf(SITE, 'http://backend'), end: positionOf(SITE, 'http://backend', 14) } };
    const references = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: doc.uri },
      position,
      context: { includeDeclaration: true },
    });
    expect(references).toEqual([declaration, use]);
  });

  it('outlines the document', async () => {
    const { client, doc } = await openSite();
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: doc.uri } });
    expect(symbols.map((symbol) => symbol.name)).toEqual(['server example.com']);
    expect(symbols[0]!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 7, character: 1 } });
    expect(symbols[0]!.selectionRange).toEqual({ start: positionOf(SITE, 'example.com'), end: positionOf(SITE, 'example.com', 11) });
    expect(symbols[0]!.children!.map((symbol) => symbol.name)).toEqual(['location /api/']);
  });

  it('colours a Dokku template with the advertised legend', async () => {
    const sigil = readFileSync(path.join(REPO_ROOT, 'examples/dokku/nginx.conf.sigil'), 'utf8');
    const dir = tree({ 'nginx.conf.sigil': sigil });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf.sigil'), sigil);
    const legend = client.initializeResult.capabilities.semanticTokensProvider!.legend as SemanticTokensLegend;
    const result = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri: doc.uri } });
    const lines = sigil.split('\n');
    const decoded: { type: string; text: string }[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < result.data.length; i += 5) {
      const [deltaLine, deltaStart, length, type] = result.data.slice(i, i + 4) as [number, number, number, number];
      line += deltaLine;
      character = deltaLine === 0 ? character + deltaStart : deltaStart;
      decoded.push({ type: legend.tokenTypes[type]!, text: lines[line]!.slice(character, character + length) });
    }
    const texts = (type: string) => decoded.filter((token) => token.type === type).map((token) => token.text);
    expect(texts('keyword')).toContain('proxy_pass');
    expect(texts('macro')).toEqual(expect.arrayContaining(['{{', '}}', 'range', 'if', 'end']));
    expect(texts('property')).toContain('.PROXY_PORT_MAP');
    expect(texts('variable').length).toBeGreaterThan(50);
    expect(texts('variable').every((text) => text.startsWith('$'))).toBe(true);
    expect(texts('comment')[0]).toBe("# Dokku's nginx template (plugins/nginx-vhosts/templates/nginx.conf.sigil), as an app ships it in its repository");
  });

  it('answers a semantic tokens range request with the tokens of that range', async () => {
    const { client, doc } = await openSite();
    const line = positionOf(SITE, 'proxy_pass').line;
    const result = await client.request<SemanticTokens>('textDocument/semanticTokens/range', {
      textDocument: { uri: doc.uri },
      range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } },
    });
    // proxy_pass (keyword) alone: `http://backend` is a plain word. One token, on that line, at its column.
    const legend = client.initializeResult.capabilities.semanticTokensProvider!.legend;
    expect(result.data).toEqual([line, 8, 'proxy_pass'.length, legend.tokenTypes.indexOf('keyword'), 0]);
  });

  it('answers null for a document that is not open', async () => {
    const { dir, client } = await openSite();
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: uriOf(path.join(dir, 'nginx.conf')) },
      position: positionOf(MAIN, 'backend', 2),
    });
    expect(hover).toBeNull();
  });
});
