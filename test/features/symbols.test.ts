// The document outline over real parsed files: nesting, names, whole-block ranges and name selections, for a plain
// config and for Dokku's template.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentSymbols, type OutlineSymbol } from '../../server/src/features/symbols.js';
import { analyze } from './support.js';

const CONFIG = `events { worker_connections 1024; }
http {
    upstream app { server 127.0.0.1:3000; keepalive 16; }
    map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
    server {
        listen 80;
        server_name example.com www.example.com;
        location /api/ {
            if ($request_method = POST) { return 405; }
            proxy_pass http://app;
        }
        location = /health { return 200; }
    }
    server { listen 8080; }
}
`;

interface Shape {
  name: string;
  children: Shape[];
}

function shape(symbols: OutlineSymbol[]): Shape[] {
  return symbols.map((symbol) => ({ name: symbol.name, children: shape(symbol.children) }));
}

function flatten(symbols: OutlineSymbol[]): OutlineSymbol[] {
  return symbols.flatMap((symbol) => [symbol, ...flatten(symbol.children)]);
}

describe('document symbols', () => {
  it('nests http, server, location, upstream, map, events and if, named by what identifies them', async () => {
    const { ctx } = await analyze({ 'nginx.conf': CONFIG });
    expect(shape(documentSymbols(ctx.file))).toEqual([
      { name: 'events', children: [] },
      {
        name: 'http',
        children: [
          { name: 'upstream app', children: [] },
          { name: 'map $http_upgrade $connection_upgrade', children: [] },
          {
            name: 'server example.com www.example.com',
            children: [
              { name: 'location /api/', children: [{ name: 'if ($request_method = POST)', children: [] }] },
              { name: 'location = /health', children: [] },
            ],
          },
          { name: 'server 8080', children: [] },
        ],
      },
    ]);
  });

  it('spans the whole block and selects the name', async () => {
    const { ctx, text } = await analyze({ 'nginx.conf': CONFIG });
    const slice = (span: OutlineSymbol['range']) => text.slice(span.startOffset, span.endOffset);
    const symbols = flatten(documentSymbols(ctx.file));
    const byName = (name: string) => symbols.find((symbol) => symbol.name === name)!;
    const server = byName('server example.com www.example.com');
    expect(slice(server.range)).toMatch(/^server \{\n {8}listen 80;[\s\S]*return 200; \}\n {4}\}$/);
    expect(slice(server.selectionRange)).toBe('example.com www.example.com');
    expect(slice(byName('location /api/').selectionRange)).toBe('/api/');
    expect(slice(byName('location /api/').range)).toMatch(/^location \/api\/ \{[\s\S]*proxy_pass http:\/\/app;\n {8}\}$/);
    expect(slice(byName('upstream app').range)).toBe('upstream app { server 127.0.0.1:3000; keepalive 16; }');
    expect(slice(byName('server 8080').selectionRange)).toBe('8080');
    expect(slice(byName('http').selectionRange)).toBe('http');
    for (const symbol of symbols) {
      expect(symbol.selectionRange.startOffset).toBeGreaterThanOrEqual(symbol.range.startOffset);
      expect(symbol.selectionRange.endOffset).toBeLessThanOrEqual(symbol.range.endOffset);
    }
  });

  it('outlines the Dokku template: servers, locations and the templated upstream', async () => {
    const sigil = readFileSync('examples/dokku/nginx.conf.sigil', 'utf8');
    const { ctx, text } = await analyze({ 'nginx.conf.sigil': sigil });
    const top = documentSymbols(ctx.file);
    expect(top.map((symbol) => symbol.name)).toEqual([
      'server {{ $.SSL_SERVER_NAME }} {{ $.NOSSL_SERVER_NAME }}',
      'upstream {{ $.APP }}-{{ $upstream_port }}',
    ]);
    const server = top[0]!;
    expect(server.children.map((symbol) => symbol.name)).toEqual([
      'location /',
      'location /',
      'location /400-error.html',
      'location /404-error.html',
      'location /500-error.html',
      'location /502-error.html',
    ]);
    expect(text.slice(top[1]!.selectionRange.startOffset, top[1]!.selectionRange.endOffset)).toBe('{{ $.APP }}-{{ $upstream_port }}');
    for (const symbol of flatten(top)) {
      expect(text.slice(symbol.range.endOffset - 1, symbol.range.endOffset)).toBe('}');
    }
  });
});
