// Hover over real parsed configs: an upstream's servers, keepalive and per-location reuse verdict with reasons, and
// the directive explanations with their rule links.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerfileNginxImage } from '../../server/src/engine/container-files.js';
import { chooseNginxTarget } from '../../server/src/engine/nginx-target.js';
import { describe, expect, it } from 'vitest';
import { hoverAt } from '../../server/src/features/hover.js';
import { docsUrl } from '../../server/src/engine/docs-url.js';
import { analyze } from './support.js';

const SITE = `http {
    upstream app {
        server 127.0.0.1:3000;
        server 127.0.0.1:3001 weight=2;
        keepalive 16;
    }
    upstream hashed {
        keepalive 8;
        ip_hash;
        server 10.0.0.1:80;
    }
    map $http_upgrade $connection_upgrade {
        default upgrade;
        '' close;
    }
    server {
        listen 80;
        location /good/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://app;
        }
        location /old/ {
            proxy_pass http://app;
        }
        location /passthrough/ {
            proxy_http_version 1.1;
            proxy_set_header Connection $http_connection;
            proxy_pass http://app;
        }
        location /hashed/ {
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://hashed;
        }
        location /ws/ {
            proxy_http_version 1.1;
            proxy_set_header Connection $connection_upgrade;
            proxy_pass http://app;
        }
        location /direct/ {
            proxy_pass http://127.0.0.1:4000;
        }
    }
}
`;

async function hoverOn(needle: string, delta: number, nth = 0, options = {}) {
  const analyzed = await analyze({ 'nginx.conf': SITE }, undefined, options);
  const hover = hoverAt(analyzed.ctx, analyzed.at(needle, delta, nth));
  return { hover, analyzed };
}

describe('hover on a pass target', () => {
  it('shows the servers, the keepalive and a reused location with each reason', async () => {
    const { hover, analyzed } = await hoverOn('http://app', 8, 0);
    expect(hover).toBeDefined();
    const markdown = hover!.markdown;
    expect(markdown).toContain('**upstream `app`** · nginx.conf:2');
    expect(markdown).toContain('servers: `127.0.0.1:3000`, `127.0.0.1:3001 weight=2`');
    expect(markdown).toContain('**Connections reused from location /good/: yes**');
    expect(markdown).toContain('- ✓ **keepalive**: `keepalive 16;` (nginx.conf:5)');
    expect(markdown).toContain('- ✓ **balancer order**: round robin');
    expect(markdown).toContain('- ✓ **HTTP version**: `proxy_http_version 1.1;` on location /good/ (nginx.conf:19)');
    expect(markdown).toContain('- ✓ **Connection header**: `proxy_set_header Connection "";` on location /good/');
    // The hover covers the target argument.
    expect(analyzed.text.slice(hover!.span.startOffset, hover!.span.endOffset)).toBe('http://app');
  });

  it('names the missing proxy_http_version and Connection header of a location that reuses nothing', async () => {
    const { hover } = await hoverOn('http://app', 8, 1);
    const markdown = hover!.markdown;
    expect(markdown).toContain('**Connections reused from location /old/: no**');
    expect(markdown).toMatch(/- ✗ \*\*HTTP version\*\*: no `proxy_http_version` applies here .* default is 1\.0/);
    expect(markdown).toContain(`[proxy-http-version](${docsUrl('proxy-http-version')})`);
    expect(markdown).toMatch(/- ✗ \*\*Connection header\*\*: no `proxy_set_header Connection` applies here/);
  });

  it('flags $http_connection as the client\'s own header', async () => {
    const { hover } = await hoverOn('http://app', 8, 2);
    const markdown = hover!.markdown;
    expect(markdown).toContain('**Connections reused from location /passthrough/: no**');
    expect(markdown).toContain("- ✗ **Connection header**: `proxy_set_header Connection $http_connection;` (nginx.conf:28) forwards the client's own Connection header");
    expect(markdown).toContain(docsUrl('connection-header-passthrough'));
    expect(markdown).toContain('- ✓ **HTTP version**');
  });

  it('flags keepalive written before ip_hash', async () => {
    const { hover } = await hoverOn('http://hashed', 8);
    const markdown = hover!.markdown;
    expect(markdown).toContain('**Connections reused from location /hashed/: no**');
    expect(markdown).toContain('- ✗ **balancer order**: `ip_hash;` (nginx.conf:9) comes after `keepalive 8;` (nginx.conf:8)');
    expect(markdown).toContain(docsUrl('keepalive-order'));
  });

  it("flags an upgrade map whose '' arm is close", async () => {
    const { hover } = await hoverOn('http://app', 8, 3);
    const markdown = hover!.markdown;
    expect(markdown).toContain('**Connections reused from location /ws/: no**');
    expect(markdown).toContain("the `''` arm of `map $http_upgrade $connection_upgrade` (nginx.conf:12) sends `close`");
    expect(markdown).toContain(docsUrl('connection-map-close'));
  });

  it('follows the target version: from 1.29.7 the defaults reuse connections', async () => {
    const { hover } = await hoverOn('http://app', 8, 1, { nginxVersion: '1.30.0' });
    const markdown = hover!.markdown;
    expect(markdown).toContain('**Connections reused from location /old/: yes**');
    expect(markdown).toContain('- ✓ **HTTP version**: HTTP/1.1, the default from nginx 1.29.7');
  });

  it('says how the cache is shared from 1.29.7: keepalive 32 local by default, per location with local', async () => {
    const site = (keepalive: string) =>
      `http {\n  upstream app {\n    server 127.0.0.1:3000;\n${keepalive}  }\n  server {\n    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n`;
    const hoverFor = async (keepalive: string, nginxVersion: string) => {
      const analyzed = await analyze({ 'nginx.conf': site(keepalive) }, undefined, { nginxVersion });
      return hoverAt(analyzed.ctx, analyzed.at('http://app', 8))!.markdown;
    };
    expect(await hoverFor('', '1.30.5')).toContain('an upstream{} block has `keepalive 32 local`: 32 idle connections per worker');
    expect(await hoverFor('    keepalive 16 local;\n', '1.31.6')).toContain('each reused only by the location that opened it (`local`)');
    expect(await hoverFor('    keepalive 16;\n', '1.30.5')).toContain('shared by every location that uses the upstream (no `local`)');
    expect(await hoverFor('    keepalive 16;\n', '1.22.1')).toContain('idle connections are cached per worker process\n');
  });

  it('says HTTP/2 to the upstream sends no Connection: close, before 1.29.7 too', async () => {
    const text = 'http {\n  upstream app {\n    server 127.0.0.1:3000;\n    keepalive 16;\n  }\n  server {\n    location / {\n      proxy_http_version 2;\n      proxy_pass http://app;\n    }\n  }\n}\n';
    const analyzed = await analyze({ 'nginx.conf': text }, undefined, { nginxVersion: '1.29.4' });
    const markdown = hoverAt(analyzed.ctx, analyzed.at('http://app', 8))!.markdown;
    expect(markdown).toContain('**Connections reused from location /: yes**');
    expect(markdown).toContain('none is sent: over HTTP/2 (`proxy_http_version 2`) nginx adds no `Connection: close`');
  });

  it('says a CONNECT tunnel (tunnel_pass, 1.31.0+) never reuses its upstream connection', async () => {
    const text = 'http {\n  upstream egress {\n    server 10.0.0.1:3128;\n  }\n  server {\n    listen 3128;\n    tunnel_pass egress;\n  }\n}\n';
    const analyzed = await analyze({ 'nginx.conf': text }, undefined, { nginxVersion: '1.31.6' });
    const markdown = hoverAt(analyzed.ctx, analyzed.at('tunnel_pass egress', 13))!.markdown;
    expect(markdown).toContain('a CONNECT tunnel: nginx never caches its upstream connection');
  });

  it('says a literal address gets an implicit upstream', async () => {
    const { hover } = await hoverOn('http://127.0.0.1:4000', 3);
    expect(hover!.markdown).toContain('names no upstream{} block: nginx makes an implicit upstream, which never keeps connections');
    expect(hover!.markdown).toContain(docsUrl('proxy-pass-no-upstream'));
  });
});

describe('hover on an upstream block name', () => {
  it('lists its checks and every pass using it with its verdict', async () => {
    const { hover, analyzed } = await hoverOn('upstream app', 'upstream '.length + 1);
    const markdown = hover!.markdown;
    expect(analyzed.text.slice(hover!.span.startOffset, hover!.span.endOffset)).toBe('app');
    expect(markdown).toContain('- ✓ **keepalive**: `keepalive 16;`');
    expect(markdown).toContain('**Used by** (4):');
    expect(markdown).toContain('- `proxy_pass` in location /good/ (nginx.conf:21): reused: yes');
    expect(markdown).toContain('- `proxy_pass` in location /old/ (nginx.conf:24): reused: no (HTTP version, Connection header)');
  });

  it('reports an upstream without keepalive in a Dokku sigil, template names and all', async () => {
    const sigil = readFileSync('examples/dokku/nginx.conf.sigil', 'utf8');
    const analyzed = await analyze({ 'nginx.conf.sigil': sigil });
    const hover = hoverAt(analyzed.ctx, analyzed.at('http://{{ $.APP }}', 2));
    const markdown = hover!.markdown;
    expect(markdown).toContain('**upstream `{{ $.APP }}-{{ $upstream_port }}`**');
    expect(markdown).toContain('servers: `{{ $listener_ip }}:{{ $upstream_port }}`');
    expect(markdown).toContain('- ✗ **keepalive**: no `keepalive` in the block');
    // proxy_http_version sits under the same `{{ if $.DOKKU_APP_WEB_LISTENERS }}` as the proxy_pass: rendered with it.
    expect(markdown).toContain('- ✓ **HTTP version**: `proxy_http_version 1.1;` on location / (nginx.conf.sigil:85)');
    expect(markdown).toContain("- ✗ **Connection header**: `proxy_set_header Connection $http_connection;` (nginx.conf.sigil:94) forwards the client's own Connection header");
  });
});

describe('hover on a directive name', () => {
  it('explains keepalive with links to its rules', async () => {
    const { hover, analyzed } = await hoverOn('keepalive 16', 2);
    expect(analyzed.text.slice(hover!.span.startOffset, hover!.span.endOffset)).toBe('keepalive');
    expect(hover!.markdown).toContain('**keepalive**: `keepalive N [local];` keeps up to N idle connections');
    expect(hover!.markdown).toContain(`[upstream-keepalive](${docsUrl('upstream-keepalive')})`);
  });

  it('explains proxy_set_header Connection differently from other headers', async () => {
    const { hover } = await hoverOn('proxy_set_header Connection ""', 3);
    expect(hover!.markdown).toContain('The Connection header sent upstream');
    expect(hover!.markdown).toContain(docsUrl('connection-header-missing'));
  });

  it('explains a balancer only inside an upstream, and gives other directives only their reference', async () => {
    const { hover: balancer } = await hoverOn('ip_hash', 1);
    expect(balancer!.markdown).toContain(docsUrl('keepalive-order'));
    const { hover: listen } = await hoverOn('listen 80', 1);
    expect(listen!.markdown).toContain('**listen** · `ngx_http_core_module`');
    expect(listen!.markdown).not.toContain('Rules:');
  });

  it('shows where a variable is set', async () => {
    const { hover } = await hoverOn('Connection $connection_upgrade', 'Connection $'.length + 2);
    expect(hover!.markdown).toContain('`$connection_upgrade` is set by:');
    expect(hover!.markdown).toContain('- `map $http_upgrade $connection_upgrade` (nginx.conf:12)');
  });
});

describe('hover on a pass target with variables', () => {
  it('says the upstream is only known at run time when the variable is not set in the files', async () => {
    const text = 'server {\n    location / {\n        proxy_pass http://$backend_host;\n    }\n}\n';
    const analyzed = await analyze({ 'site.conf': text });
    const hover = hoverAt(analyzed.ctx, analyzed.at('$backend_host', 3));
    expect(hover!.markdown).toBe('`http://$backend_host` has nginx variables: which upstream it reaches is only known at run time');
  });
});

describe('hover: the nginx version assumed', () => {
  it('ends upstream and directive hovers with the version and where it came from', async () => {
    const target = chooseNginxTarget({ detected: { file: '/nowhere/Dockerfile', ...dockerfileNginxImage('FROM nginx:stable\n')! } });
    const { hover, analyzed } = await hoverOn('http://app', 8, 0, { nginxVersion: target.version, nginxTarget: target });
    const fromFile = path.relative(path.dirname(analyzed.ctx.file.path), '/nowhere/Dockerfile');
    expect(hover!.markdown.endsWith(`\n\n_Assuming nginx 1.30 (${fromFile}:1)._`)).toBe(true);
    const directive = await hoverOn('proxy_http_version', 2, 0, { nginxTarget: chooseNginxTarget({}) });
    expect(directive.hover!.markdown).toContain('_Assuming nginx before 1.29.7 (default)._');
    // Without a target in the options (a caller that did not choose one), nothing is added.
    expect((await hoverOn('http://app', 8, 0)).hover!.markdown).not.toContain('Assuming');
  });
});
