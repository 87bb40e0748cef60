import { describe, expect, it } from 'vitest';
import { contextOpenedBy, inferRootContext } from '../../server/src/model/context.js';
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
  });

  it('defaults to http', async () => {
    expect(await infer('gzip on;\n')).toBe('http');
    expect(await infer('')).toBe('http');
  });
});
