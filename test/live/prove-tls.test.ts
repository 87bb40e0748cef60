// Issue 27, TLS: `https://` targets go to an HTTPS keep-alive stub, and servers that listen with ssl keep doing so in
// the sandbox with a certificate generated for the run (every certificate, key and CA file the config names replaced
// by it, OCSP stapling and DH parameters left out), requested over TLS with SNI = server_name. The certificate lives
// in the private prefix and goes with it.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, fixture, LOAD, project, prove, proveJson, REQUESTS } from './prove-helpers.js';

describe('prove: https:// upstreams', () => {
  it('measures an https:// upstream and an https:// literal target against the HTTPS stub', async () => {
    const site = [
      'upstream secure { server 192.0.2.8:443; }',
      'server {',
      '    listen 80;',
      '    location /up { proxy_ssl_verify on; proxy_ssl_trusted_certificate /nonexistent/ca.pem; proxy_pass https://secure; }',
      '    location /literal { proxy_pass https://api.example.com/v1/; }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'app.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => [entry.location, entry.skipped])).toEqual([['/up', null], ['/literal', null]]);
    for (const entry of locations) {
      expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
      expect(entry.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
      expect(entry.before!.statuses).toEqual({ 200: REQUESTS });
      expect(entry.after!.statuses).toEqual({ 200: REQUESTS });
    }
  });
});

describe('prove: servers that listen with ssl', () => {
  // What a Let's Encrypt site carries: files the sandbox does not have, stapling that would reach an OCSP responder,
  // client certificates required; `$ssl_server_name` proves that SNI is the server_name.
  const site = [
    'upstream app { server 192.0.2.10:8080; }',
    'server {',
    '    listen 443 ssl;',
    '    server_name secure.example.com;',
    '    ssl_certificate /etc/letsencrypt/live/secure.example.com/fullchain.pem;',
    '    ssl_certificate_key /etc/letsencrypt/live/secure.example.com/privkey.pem;',
    '    ssl_trusted_certificate /etc/letsencrypt/live/secure.example.com/chain.pem;',
    '    ssl_dhparam /etc/ssl/dhparam.pem;',
    '    ssl_stapling on;',
    '    ssl_stapling_verify on;',
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    '    ssl_session_cache shared:SSL:1m;',
    '    ssl_client_certificate /etc/nginx/client-ca.pem;',
    '    ssl_verify_client on;',
    '    if ($ssl_server_name != "secure.example.com") { return 421; }',
    '    location / { proxy_pass http://app; }',
    '}',
    '',
  ].join('\n');

  it('requests them over TLS with SNI, the certificate generated for the run, and removes it at the end', async () => {
    const where = project({ 'app.conf': site });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    const [entry] = locations;
    expect(entry!.request).toMatchObject({ scheme: 'https', protocol: 'HTTP/1.1', host: 'secure.example.com' });
    expect(entry!.before!.statuses).toEqual({ 200: REQUESTS });
    expect(entry!.after!.statuses).toEqual({ 200: REQUESTS });
    expect(entry!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(entry!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it('sends the WebSocket upgrade over TLS too', async () => {
    const websocket = fixture('connection-upgrade-literal.conf').replace('listen 127.0.0.1:80;', 'listen 127.0.0.1:443 ssl;\n    ssl_certificate /nonexistent/cert.pem;');
    expect(websocket).toContain('listen 127.0.0.1:443 ssl;');
    const where = project({ 'app.conf': websocket });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => [entry.request?.scheme, entry.websocket])).toEqual([['https', { before: 101, after: 101 }]]);
    const table = await prove(where, [...LOAD, '.']);
    expect(table.stdout).toContain('(proxy_pass, HTTP/1.1 over TLS)');
  });
});
