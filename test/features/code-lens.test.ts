// The code lens text over real parsed configs: one lens per upstream{} of the document, with the upstream's keepalive
// and the passes that use it counted by what they need; and where a click goes (the first pass needing a change).
import { describe, expect, it } from 'vitest';
import { upstreamLenses } from '../../server/src/features/code-lens.js';
import { analyze } from './support.js';

const SITE = `http {
    upstream ready {
        server 127.0.0.1:3000;
        keepalive 16;
    }
    upstream off {
        server 127.0.0.1:3001;
    }
    upstream hashed {
        keepalive 8;
        ip_hash;
        server 10.0.0.1:80;
    }
    upstream idle {
        server 127.0.0.1:3002;
        keepalive 4;
    }
    server {
        listen 80;
        location /a/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://ready;
        }
        location /b/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://ready;
        }
        location /old/ {
            proxy_pass http://ready;
        }
        location /half/ {
            proxy_http_version 1.1;
            proxy_pass http://ready;
        }
        location /php/ {
            fastcgi_pass ready;
        }
        location /py/ {
            uwsgi_pass ready;
        }
        location /off/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://off;
        }
        location /hashed/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://hashed;
        }
    }
}
`;

async function titles(nginxVersion: string, text = SITE): Promise<string[]> {
  const { ctx } = await analyze({ 'nginx.conf': text }, undefined, { nginxVersion });
  return upstreamLenses(ctx).map((lens) => lens.title);
}

describe('the upstream code lens', () => {
  it('counts the passes by what they need, before nginx 1.29.7', async () => {
    expect(await titles('1.22.1')).toEqual([
      'keepalive ✓ · 1 pass needs HTTP/1.1 + Connection "" · 1 needs Connection "" · 1 needs fastcgi_keep_conn on · 1 never reuse (uwsgi) · 2 ready',
      'keepalive off · 1 pass otherwise ready',
      'keepalive ignored: ip_hash after it · 1 pass otherwise ready',
      'keepalive ✓ · no pass uses it',
    ]);
  });

  it('from nginx 1.29.7 (HTTP/1.1 and no Connection: close by default, keepalive 32, order free)', async () => {
    expect(await titles('1.30.0')).toEqual([
      'keepalive ✓ · 1 pass needs fastcgi_keep_conn on · 1 never reuse (uwsgi) · 4 ready',
      'keepalive ✓ (default 32 local) · 1 pass ready',
      'keepalive ✓ · 1 pass ready',
      'keepalive ✓ · no pass uses it',
    ]);
  });

  it('says when keepalive depends on the template, and when 0 turns it off', async () => {
    const guarded = `upstream app {
    server 127.0.0.1:3000;
    {{ if $.PROXY_KEEPALIVE }}keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}
}
server {
    location / {
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_pass http://app;
    }
}
`;
    expect(await titles('1.22.1', guarded)).toEqual(['keepalive only if the template renders it · 1 pass otherwise ready']);
    const zero = 'http {\n  upstream app {\n    server 127.0.0.1:3000;\n    keepalive 0;\n  }\n}\n';
    expect(await titles('1.30.0', zero)).toEqual(['keepalive off (0) · no pass uses it']);
    expect(await titles('1.22.1', zero)).toEqual(['keepalive 0 is invalid before nginx 1.29.7 · no pass uses it']);
  });

  it('sits on the upstream name and reveals the first pass needing a change', async () => {
    const { ctx, at } = await analyze({ 'nginx.conf': SITE }, undefined, { nginxVersion: '1.22.1' });
    const [ready, off] = upstreamLenses(ctx);
    expect(ready!.span.startOffset).toBe(at('upstream ready'));
    expect(ready!.reveal?.span.startOffset).toBe(at('proxy_pass http://ready', 0, 2));
    expect(off!.reveal).toBeUndefined();
  });

  it('shows upstreams of an included file in that file, with the passes of its includer', async () => {
    const main = 'http {\n  include upstreams.conf;\n  server {\n    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n';
    const upstreamsConf = 'upstream app {\n  server 127.0.0.1:3000;\n  keepalive 16;\n}\n';
    const analyzed = await analyze({ 'nginx.conf': main, 'upstreams.conf': upstreamsConf }, ['nginx.conf'], { nginxVersion: '1.22.1' });
    expect(upstreamLenses(analyzed.ctx)).toEqual([]);
    const lenses = upstreamLenses(analyzed.other('upstreams.conf'));
    expect(lenses.map((lens) => lens.title)).toEqual(['keepalive ✓ · 1 pass needs HTTP/1.1 + Connection ""']);
    expect(lenses[0]!.reveal?.file.path).toBe(analyzed.ctx.file.path);
  });
});
