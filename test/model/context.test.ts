import { describe, expect, it } from 'vitest';
import { contextOpenedBy, inferRootContext, rootContextOf } from '../../server/src/model/context.js';
import { findDirective, parseModel } from './support.js';

describe('contextOpenedBy', () => {
  it('names the context each kind of block opens', async () => {
    const file = await parseModel(
      [
        'http {',
        '  upstream u { server a:80; }',
        '  map $a $b { default 0; }',
        '  server {',
        '    location / {',
        '      if ($x) { return 404; }',
        '      limit_except GET { deny all; }',
        '      access_by_lua_block { ngx.exit(403) }',
        '    }',
        '  }',
        '  vendor_block { x 1; }',
        '}',
      ].join('\n'),
    );
    const opened = (name: string, enclosing: Parameters<typeof contextOpenedBy>[1]) =>
      contextOpenedBy(findDirective(file, name), enclosing);
    expect(opened('http', 'main')).toBe('http');
    expect(opened('upstream', 'http')).toBe('upstream');
    expect(opened('map', 'http')).toBe('map');
    expect(opened('location', 'server')).toBe('location');
    expect(opened('if', 'location')).toBe('if');
    expect(opened('limit_except', 'location')).toBe('limit_except');
    expect(opened('access_by_lua_block', 'location')).toBe('lua');
    expect(opened('vendor_block', 'http')).toBe('block');
    expect(contextOpenedBy(findDirective(file, 'server', 1), 'http')).toBe('server');
    // `server` inside `upstream` is a simple directive: it opens nothing.
    expect(contextOpenedBy(findDirective(file, 'server', 0), 'upstream')).toBeUndefined();
  });
});

describe('inferRootContext', () => {
  const infer = async (text: string, filePath?: string) => inferRootContext(await parseModel(text, filePath));

  it('lets a stated context win over everything', async () => {
    expect(await infer('# nginx-keepalive: context=location\nworker_processes 1;\n', '/x/nginx.conf.sigil')).toBe(
      'location',
    );
  });

  it('treats a Dokku sigil as an http snippet', async () => {
    expect(await infer('server { listen 80; }\n', '/app/nginx.conf.sigil')).toBe('http');
  });

  it('recognises main-only directives and top-level blocks', async () => {
    expect(await infer('events {}\nhttp {}\n')).toBe('main');
    expect(await infer('worker_processes auto;\n')).toBe('main');
    expect(await infer('include /etc/nginx/modules-enabled/*.conf;\nserver {}\n')).toBe('main');
    expect(await infer('stream { server { listen 53; } }\n')).toBe('main');
  });

  it('recognises http, server and location snippets', async () => {
    expect(await infer('upstream u { server a; }\n')).toBe('http');
    expect(await infer('log_format main "$x";\n')).toBe('http');
    expect(await infer('listen 80;\nlocation / {}\n')).toBe('server');
    expect(await infer('proxy_pass http://u;\nproxy_set_header Host $host;\n')).toBe('location');
  });

  it('prefers the outermost context a snippet demands', async () => {
    expect(await infer('server_name a;\nupstream u { server a; }\n')).toBe('http');
    expect(await infer('proxy_pass http://u;\nlisten 80;\n')).toBe('server');
    // Whatever the order the statements come in.
    expect(await infer('proxy_pass http://u;\nlisten 80;\nlimit_req_zone $x zone=z:1m rate=1r/s;\nmap $a $b {}\n')).toBe('http');
    expect(await infer('listen 80;\nupstream u { server a; }\nproxy_pass http://u;\nuser nginx;\n')).toBe('main');
  });

  it('defaults to http', async () => {
    expect(await infer('gzip on;\n')).toBe('http');
    expect(await infer('')).toBe('http');
  });

  it('reads a top-level server proxying outside any location as a stream snippet (http rejects that)', async () => {
    expect(await infer('upstream db { server 127.0.0.1:5432; }\nserver { listen 5433; proxy_pass db; }\n')).toBe('stream');
    expect(await infer('server { listen 53 udp; }\n')).toBe('stream');
    expect(await infer('server { listen 443; ssl_preread on; proxy_pass $upstream; }\nmap $ssl_preread_server_name $upstream { default a; }\n')).toBe(
      'stream',
    );
    // A location makes it http's, whatever else the server holds; so does an http-only top-level directive.
    expect(await infer('server { listen 80; proxy_pass db; location / {} }\n')).toBe('http');
    expect(await infer('proxy_cache_path /c keys_zone=c:1m;\nserver { listen 80; proxy_pass db; }\n')).toBe('http');
  });
});

describe('rootContextOf', () => {
  const basis = async (text: string, filePath?: string) => rootContextOf(await parseModel(text, filePath)).basis;

  it('says whether the context was stated, inferred from a directive that demands it, or is unknown', async () => {
    expect(await basis('# nginx-keepalive: context=location\nproxy_set_header Host $host;\n')).toBe('stated');
    expect(await basis('upstream u { server a; }\n')).toBe('inferred');
    expect(await basis('server { listen 80; }\n', '/app/nginx.conf.sigil')).toBe('inferred');
    expect(await basis('proxy_pass http://u;\n')).toBe('inferred');
    // Fits http, server and location alike: read as http, but nothing says so.
    expect(await basis('proxy_set_header Connection $http_connection;\n')).toBe('unknown');
    expect(await basis('')).toBe('unknown');
  });
});
