// Hover from the directive table over real parsed configs: any directive's description, contexts, default, module,
// versions and nginx.org link, with the directive rule's finding there if it reports one; any `$variable`'s capture, built-in
// module or absence; unknown directives and template-named ones without a crash.
import { describe, expect, it } from 'vitest';
import { hoverAt } from '../../server/src/features/hover.js';
import { analyze } from './support.js';

const SITE = `http {
    sendfile on;
    upstream app { server 127.0.0.1:3000; }
    server {
        listen 80;
        server_name ~^(?<sub>[a-z]+)\\.example\\.com$;
        location ~ ^/(api|v2)/(?<rest>.*)$ {
            proxy_set_header X-Rest $rest;
            proxy_set_header X-Part $1;
            proxy_set_header X-Sub $sub;
            proxy_set_header X-Host $host;
            proxy_set_header X-Agent $http_x_request_id;
            proxy_set_header X-Typo $hots;
            proxy_pass http://app;
            frobnicate 3;
            rewrite ^/old/(.*)$ /new/$1 break;
        }
        location / {
            return 200 $2;
        }
    }
    location /misplaced { }
}
`;

async function hoverOn(needle: string, delta: number, options = {}) {
  const analyzed = await analyze({ 'nginx.conf': SITE }, undefined, options);
  const hover = hoverAt(analyzed.ctx, analyzed.at(needle, delta));
  return { hover, covered: hover && analyzed.text.slice(hover.span.startOffset, hover.span.endOffset) };
}

describe('hover on any directive', () => {
  it('shows the description, arguments, default, contexts, module and link', async () => {
    const { hover, covered } = await hoverOn('sendfile on', 2);
    expect(covered).toBe('sendfile');
    const markdown = hover!.markdown;
    expect(markdown).toContain('**sendfile** · `ngx_http_core_module`');
    expect(markdown).toContain('```nginx\nsendfile on | off;\n```');
    expect(markdown).toContain('Enables or disables the use of sendfile.');
    expect(markdown).toContain('- Arguments: `on` | `off`');
    expect(markdown).toContain('- Default: `sendfile off;`');
    expect(markdown).toContain('- Context: http, server, location, if in location');
    expect(markdown).toContain('[sendfile on nginx.org](https://nginx.org/en/docs/http/ngx_http_core_module.html#sendfile)');
    // Not one the keepalive rules read: no rules, no version assumption.
    expect(markdown).not.toContain('Rules:');
  });

  it('keeps the keepalive explanation and its rules under the reference of proxy_pass', async () => {
    const { hover } = await hoverOn('proxy_pass http://app', 2);
    const markdown = hover!.markdown;
    expect(markdown.indexOf('**proxy_pass** · `ngx_http_proxy_module`')).toBe(0);
    expect(markdown).toContain('\n---\n');
    expect(markdown).toContain('**proxy_pass**: Proxies to an address or an upstream{} group.');
  });

  it('shows since and removed versions, and says when the assumed nginx lacks a directive', async () => {
    const text = 'http {\n    server {\n        ssl on;\n        listen 443 ssl;\n    }\n}\n';
    const analyzed = await analyze({ 'site.conf': text }, undefined, { nginxVersion: '1.30.0' });
    const markdown = hoverAt(analyzed.ctx, analyzed.at('ssl on', 1))!.markdown;
    expect(markdown).toContain('removed in nginx 1.25.1');
    expect(markdown).toContain('deprecated: use `listen ... ssl`');
    expect(markdown).toContain('**not in nginx 1.30.0**');
  });

  it("shows the directive rule's finding on a misplaced directive, the rule's own headline", async () => {
    const { hover } = await hoverOn('location /misplaced', 2);
    expect(hover!.markdown).toContain('✗ "location" directive is not allowed in http: move it to server, location ([directive](');
  });

  it('says an unknown directive is unknown, without failing', async () => {
    const { hover, covered } = await hoverOn('frobnicate', 2);
    expect(covered).toBe('frobnicate');
    expect(hover!.markdown).toMatch(/^\*\*frobnicate\*\*: not in the directive table \(nginx 1\.22\.1–1\.3\d\.\d+ and the modules/);
    expect(hover!.markdown).toContain('✗ unknown directive "frobnicate"');
  });

  it('has nothing for map rows and template-named statements', async () => {
    const text = 'http {\n    map $http_upgrade $c {\n        default upgrade;\n    }\n    {{ $.X }} on;\n}\n';
    const analyzed = await analyze({ 'nginx.conf.sigil': text });
    expect(hoverAt(analyzed.ctx, analyzed.at('default', 2))).toBeUndefined();
    expect(hoverAt(analyzed.ctx, analyzed.at('{{ $.X }}', 4))).toBeUndefined();
  });
});

describe('hover on any variable', () => {
  it('names the regex a numbered or named capture comes from', async () => {
    const part = (await hoverOn('X-Part $1', 'X-Part $'.length)).hover!.markdown;
    expect(part).toBe('`$1`: capture 1 of `location ~ ^/(api|v2)/(?<rest>.*)$` (nginx.conf:7)');
    const rest = (await hoverOn('X-Rest $rest', 'X-Rest $'.length)).hover!.markdown;
    expect(rest).toBe('`$rest`: named capture of `location ~ ^/(api|v2)/(?<rest>.*)$` (nginx.conf:7)');
    const sub = (await hoverOn('X-Sub $sub', 'X-Sub $'.length)).hover!.markdown;
    expect(sub).toContain('named capture of `server_name ~^(?<sub>[a-z]+)\\.example\\.com$;` (nginx.conf:6)');
    // rewrite's own regex sets the captures its replacement reads.
    const rewritten = (await hoverOn('/new/$1', '/new/$'.length)).hover!.markdown;
    expect(rewritten).toBe('`$1`: capture 1 of `rewrite ^/old/(.*)$ /new/$1 break;` (nginx.conf:16)');
    const none = (await hoverOn('200 $2', '200 $'.length)).hover!.markdown;
    expect(none).toBe('`$2`: no regex around it has capture 2');
  });

  it('names the module of a built-in variable, prefix ones included, with the nginx.org anchor', async () => {
    const host = await hoverOn('X-Host $host', 'X-Host $'.length + 1);
    expect(host.covered).toBe('$host');
    expect(host.hover!.markdown).toContain('`$host`: a built-in variable of `ngx_http_core_module`');
    expect(host.hover!.markdown).toContain('(https://nginx.org/en/docs/http/ngx_http_core_module.html#var_host)');
    const agent = (await hoverOn('$http_x_request_id', 2)).hover!.markdown;
    expect(agent).toContain('`$http_x_request_id`: any `$http_*` name, a built-in prefix variable of `ngx_http_core_module`');
    expect(agent).toContain('#var_http_)');
  });

  it('says a variable nothing sets is neither set nor built-in', async () => {
    const { hover } = await hoverOn('$hots', 2);
    expect(hover!.markdown).toBe('`$hots`: not set in the checked files and not a built-in http variable of nginx');
  });

  it('reads stream variables in a stream server', async () => {
    const text = 'stream {\n    server {\n        listen 53 udp;\n        return $remote_addr;\n    }\n}\n';
    const analyzed = await analyze({ 'nginx.conf': text });
    const markdown = hoverAt(analyzed.ctx, analyzed.at('$remote_addr', 2))!.markdown;
    expect(markdown).toContain('`ngx_stream_core_module (libnginx-mod-stream)`');
    expect(markdown).toContain('stream/ngx_stream_core_module.html#var_remote_addr');
  });
});
