// Names that are not identifiers are directives to nginx too (`proxy-pass` is "unknown directive"), unless they are a
// template's placeholder; an unknown name gets the table's name it most likely meant ("did you mean").
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { FileHost } from '../../server/src/util/types.js';
import { nginxTestSnippets } from '../support/nginx.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const inLocation = (line: string) => `server {\n    listen 127.0.0.1:8080;\n    location / {\n        ${line}\n    }\n}\n`;

async function directiveMessages(text: string, path = '/virtual/site.conf'): Promise<string[]> {
  const findings = await analyze([{ path, text }], { host: isolated });
  return findings.filter((finding) => finding.ruleId === 'directive').map((finding) => `${finding.span.start.line + 1}: ${finding.message}`);
}

describe('directive names', () => {
  it('reports a name with a dash as nginx does, suggesting the directive it resembles', async () => {
    const text = inLocation('proxy-pass http://127.0.0.1:3000;');
    expect(nginxTestSnippets([text]).errors[0]?.message).toBe('unknown directive "proxy-pass"');
    expect(await directiveMessages(text)).toEqual(['4: unknown directive "proxy-pass": did you mean "proxy_pass"?']);
  });

  it('suggests the one name one edit away, and nothing when none or several are', async () => {
    expect(await directiveMessages(inLocation('proxy_passs http://127.0.0.1:3000;'))).toEqual([
      '4: unknown directive "proxy_passs": did you mean "proxy_pass"?',
    ]);
    expect(await directiveMessages(inLocation('proxy_psas http://127.0.0.1:3000;'))).toEqual([
      '4: unknown directive "proxy_psas": did you mean "proxy_pass"?',
    ]);
    expect(await directiveMessages(inLocation('Proxy_Pass http://127.0.0.1:3000;'))).toEqual([
      '4: unknown directive "Proxy_Pass": did you mean "proxy_pass"?',
    ]);
    expect(await directiveMessages(inLocation('frobnicate on;'))).toEqual([
      '4: unknown directive "frobnicate": fix the name, or add it to "directives.extra"',
    ]);
    // One whole word of three or more changed: a word before the last first (proxy_set_header is as near), else the last.
    expect(await directiveMessages(inLocation('proxy_set_version 1.1;'))).toEqual([
      '4: unknown directive "proxy_set_version": did you mean "proxy_http_version"?',
    ]);
    expect(await directiveMessages(inLocation('fastcgi_keep_connection on;'))).toEqual([
      '4: unknown directive "fastcgi_keep_connection": did you mean "fastcgi_keep_conn"?',
    ]);
    expect(await directiveMessages(inLocation('proxy_foo_timeout 5s;'))).toEqual([
      '4: unknown directive "proxy_foo_timeout": fix the name, or add it to "directives.extra"',
    ]);
    // http, http2 and http3 are each one edit away.
    expect(await directiveMessages(inLocation('httpX on;'))).toEqual([
      '4: unknown directive "httpX": fix the name, or add it to "directives.extra"',
    ]);
  });

  it('makes a name close to no known directive a warning naming what it was checked against, a typo an error', async () => {
    const text = inLocation('upload_progres uploads 1m;\n        nchan_subscriber;\n        frobnicate on;');
    const findings = (await analyze([{ path: '/virtual/site.conf', text }], { host: isolated })).filter((f) => f.ruleId === 'directive');
    expect(findings.map((f) => [f.span.start.line + 1, f.severity, f.message])).toEqual([
      [4, 'error', 'unknown directive "upload_progres": did you mean "upload_progress"?'],
      [6, 'warning', 'unknown directive "frobnicate": fix the name, or add it to "directives.extra"'],
    ]);
    expect(findings[0]!.detail).toBeUndefined();
    const detail = findings[1]!.detail!;
    for (const part of ['nginx 1.22.1–1.31.5', "Debian 12's 30 libnginx-mod-* packages", 'nchan', 'http-uploadprogress', 'stream-js', '"directives.extra"', '.nginx-keepalive.json']) {
      expect(detail).toContain(part);
    }
    // A rule the user set to info stays info: a finding's own severity only ever lowers the configured one.
    const quiet = await analyze([{ path: '/virtual/site.conf', text }], { host: isolated, rules: { directive: 'info' } });
    expect(quiet.filter((f) => f.ruleId === 'directive').map((f) => f.severity)).toEqual(['info', 'info']);
  });

  it('knows the out-of-tree modules the corpus meets (VTS, pagespeed) and names them in the warning detail', async () => {
    const text = 'server {\n    listen 8080;\n    pagespeed on;\n    pagespeed FileCachePath /tmp/ps;\n' +
      '    location /status { vhost_traffic_status_display; vhost_traffic_status_display_format html; }\n    frobnicate on;\n}\n';
    const findings = (await analyze([{ path: '/virtual/site.conf', text }], { host: isolated })).filter((f) => f.ruleId === 'directive');
    expect(findings.map((f) => `${f.span.start.line + 1}: ${f.message}`)).toEqual([
      '6: unknown directive "frobnicate": fix the name, or add it to "directives.extra"',
    ]);
    expect(findings[0]!.detail).toContain('nginx-module-vts 0.2.7, ngx_pagespeed 1.13.35.2');
  });

  it('knows the directives of 1.29.x-1.31.x at the release that added them', async () => {
    const text = inLocation('tunnel_pass;\n        proxy_socket_sndbuf 64k;\n        proxy_socket_rcvbuf 64k;');
    const messages = async (nginxVersion: string) =>
      (await analyze([{ path: '/virtual/site.conf', text }], { host: isolated, nginxVersion }))
        .filter((f) => f.ruleId === 'directive')
        .map((f) => `${f.span.start.line + 1}: ${f.message}`);
    expect(await messages('1.31.6')).toEqual([]);
    expect(await messages('1.31.3')).toEqual([]);
    expect(await messages('1.31.2')).toEqual([
      '5: "proxy_socket_sndbuf" needs nginx 1.31.3+ (target 1.31.2): remove it or raise nginxVersion',
      '6: "proxy_socket_rcvbuf" needs nginx 1.31.3+ (target 1.31.2): remove it or raise nginxVersion',
    ]);
    expect((await messages('1.30.5'))[0]).toBe('4: "tunnel_pass" needs nginx 1.31.0+ (target 1.30.5): remove it or raise nginxVersion');
  });

  it("names NGINX Plus's directives as such, warnings, never a did-you-mean", async () => {
    const text = inLocation('health_check interval=5s;\n        status_zone api;');
    expect(nginxTestSnippets([text]).errors[0]?.message).toBe('unknown directive "health_check"');
    const findings = (await analyze([{ path: '/virtual/site.conf', text }], { host: isolated })).filter((f) => f.ruleId === 'directive');
    expect(findings.map((f) => [f.span.start.line + 1, f.severity, f.message])).toEqual([
      [4, 'warning', '"health_check" is an NGINX Plus directive: open-source nginx rejects it'],
      [5, 'warning', '"status_zone" is an NGINX Plus directive: open-source nginx rejects it'],
    ]);
    expect(findings[0]!.detail).toContain('https://nginx.org/en/docs/http/ngx_http_upstream_hc_module.html#health_check');
    expect(findings[0]!.detail).toContain('"directives.extra"');
  });

  it('leaves placeholders alone: envsubst, ERB and @X@ names are not directives until rendered', async () => {
    for (const line of ['${DIRECTIVE} on;', '<%= directive %> on;', '@DIRECTIVE@ on;']) {
      expect(await directiveMessages(inLocation(line)), line).toEqual([]);
    }
  });
});
