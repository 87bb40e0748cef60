// Hover shows nginx.org's reference (model/nginx-docs.ts, generated from nginx.org's documentation source): the
// syntax line, the default in the assumed nginx and the releases that changed it, the version that added the
// directive and its newer parameters, and a description, per context and per assumed version.
import { describe, expect, it } from 'vitest';
import { hoverAt } from '../../server/src/features/hover.js';
import { allDirectives } from '../../server/src/model/directive-table.js';
import { directiveDocs } from '../../server/src/model/nginx-docs.js';
import { analyze } from './support.js';

const SITE = `events {}
error_log /var/log/nginx/error.log;
http {
    access_log /var/log/nginx/access.log;
    keepalive_timeout 65;
    ssl_protocols TLSv1.2;
    proxy_http_version 1.1;
    upstream app {
        server 127.0.0.1:3000 weight=2;
        keepalive 16;
    }
    server {
        listen 80;
        server_name example.com;
        root /srv/www;
        index index.html;
        http2 on;
        add_header X-Frame-Options DENY;
        more_set_headers "Server: x";
        location / {
            proxy_set_header Host $host;
            proxy_pass http://app;
        }
    }
}
`;

async function hover(needle: string, nginxVersion?: string): Promise<string> {
  const analyzed = await analyze({ 'nginx.conf': SITE }, undefined, nginxVersion ? { nginxVersion } : {});
  return hoverAt(analyzed.ctx, analyzed.at(needle, 1))!.markdown;
}

describe("nginx.org's reference in hover", () => {
  it('shows keepalive with its syntax line, none as the default before 1.29.7 and `local` as newer than the assumed nginx', async () => {
    const markdown = await hover('keepalive 16');
    expect(markdown).toContain('```nginx\nkeepalive connections [local];\n```');
    expect(markdown).toContain('Enables or disables caching of keepalive connections to upstream servers.');
    expect(markdown).toContain('- Default: none in nginx 1.29.6');
    expect(markdown).toContain('- Default by release: none before 1.29.7 · `keepalive 32 local;` since 1.29.7');
    expect(markdown).toContain('- Versions: added in nginx 1.1.4 (in nginx 1.29.6)');
    expect(markdown).toContain('`local` 1.29.7 (**not in nginx 1.29.6**)');
  });

  it('shows the 1.29.7 default of keepalive, with local available, when that nginx is assumed', async () => {
    const markdown = await hover('keepalive 16', '1.30.0');
    expect(markdown).toContain('- Default: `keepalive 32 local;` in nginx 1.30.0');
    expect(markdown).toContain('- Parameters added: `local` 1.29.7');
    expect(markdown).not.toContain('**not in nginx 1.30.0**');
  });

  it("gives proxy_set_header its two defaults before 1.29.7 and Host alone from 1.29.7", async () => {
    expect(await hover('proxy_set_header Host')).toContain(
      '- Default: `proxy_set_header Host $proxy_host;` and `proxy_set_header Connection close;` in nginx 1.29.6',
    );
    const modern = await hover('proxy_set_header Host', '1.29.7');
    expect(modern).toContain('- Default: `proxy_set_header Host $proxy_host;` in nginx 1.29.7');
    expect(modern).toContain('before 1.29.7 · `proxy_set_header Host $proxy_host;` since 1.29.7');
  });

  it('gives proxy_http_version 1.0 before 1.29.7 and 1.1 from it, from the C sources', async () => {
    expect(await hover('proxy_http_version 1.1')).toContain('- Default: `proxy_http_version 1.0;` in nginx 1.29.6');
    expect(await hover('proxy_http_version 1.1', '1.31.6')).toContain('- Default: `proxy_http_version 1.1;` in nginx 1.31.6');
  });

  it('shows the documented defaults the C sources leave to run time', async () => {
    expect(await hover('root /srv')).toContain('- Default: `root html;`');
    expect(await hover('index index.html')).toContain('- Default: `index index.html;`');
    expect(await hover('listen 80')).toContain('- Default: `listen *:80 | *:8000;`');
    expect(await hover('server_name example')).toContain('- Default: `server_name "";`');
    expect(await hover('access_log /var')).toContain('- Default: `access_log logs/access.log combined;`');
    expect(await hover('error_log /var')).toContain('- Default: `error_log logs/error.log error;`');
    expect(await hover('keepalive_timeout 65')).toContain('- Default: `keepalive_timeout 75s;`');
    // ssl_protocols: the C fixes the older defaults, nginx.org today's.
    expect(await hover('ssl_protocols TLSv1.2', '1.22.1')).toContain('- Default: `ssl_protocols TLSv1 TLSv1.1 TLSv1.2;` in nginx 1.22.1');
    expect(await hover('ssl_protocols TLSv1.2', '1.30.0')).toContain('- Default: `ssl_protocols TLSv1.2 TLSv1.3;` in nginx 1.30.0');
  });

  it('describes add_header, http2 and more_set_headers, with their syntax lines', async () => {
    const addHeader = await hover('add_header X');
    expect(addHeader).toContain('add_header name value [always];');
    expect(addHeader).toContain('Adds the specified field to a response header');
    const http2 = await hover('http2 on');
    expect(http2).toContain('Enables the HTTP/2 protocol.');
    expect(http2).toContain('- Versions: added in nginx 1.25.1 (in nginx 1.29.6)');
    expect(await hover('http2 on', '1.22.1')).toContain('- Versions: added in nginx 1.25.1 (**not in nginx 1.22.1**)');
    const more = await hover('more_set_headers');
    expect(more).toContain('more_set_headers [-t <content-type list>]... [-s <status-code list>]... <new-header>...;');
    expect(more).toContain('Replaces (if any) or adds (if not any) the specified output headers');
  });

  it('lists the upstream server parameters added since 1.22.1 with the version that added each', async () => {
    const markdown = await hover('server 127.0.0.1:3000');
    expect(markdown).toContain('`resolve` 1.27.3');
    expect(markdown).not.toContain('slow_start');
  });

  it("reads njs's directives from nginx.org's pages, and nchan's, VTS's, memc's from their READMEs", () => {
    const docs = (module: string, name: string) => directiveDocs(allDirectives().find((e) => e.module === module && e.name === name)!);
    // libnginx-mod-http-js is a Debian package whose documentation is nginx.org's ngx_http_js_module page.
    expect(docs('ngx_http_js_module', 'js_import')?.text).toContain('Imports a module that implements location and variable handlers in njs.');
    expect(docs('ngx_stream_js_module', 'js_access')?.syntax).toEqual(['js_access module.function;']);
    expect(docs('ngx_nchan_module', 'nchan_subscriber')?.text).toContain('Defines a server or location as a channel subscriber endpoint.');
    expect(docs('ngx_nchan_module', 'push_subscriber')?.text).toMatch(/^Another name of `nchan_subscriber`: Defines/);
    expect(docs('ngx_http_vhost_traffic_status_module', 'vhost_traffic_status_zone')?.default).toEqual(['shared:vhost_traffic_status:1m']);
    expect(docs('ngx_http_memc_module', 'memc_pass')?.text).toBe('Specify the memcached server backend.');
    expect(docs('ngx_rtmp_hls_module', 'hls')?.written).toBe(true);
  });

  it('has a description for every directive of the table', () => {
    // nginx.org's first paragraph, a module README's, or a line written for this project: never nothing.
    const undescribed = allDirectives().filter((entry) => !(directiveDocs(entry)?.text || entry.description));
    expect(undescribed.map((entry) => `${entry.module} ${entry.name}`)).toEqual([]);
  });
});
