// Issue 27, gRPC: grpc_pass locations get real gRPC calls over HTTP/2 (POST, application/grpc, one empty message),
// h2c to a cleartext port and h2 (ALPN) to an ssl one, and nginx's connections to the gRPC stub (Node's http2 server,
// cleartext for grpc://, TLS for grpcs://) are counted: one per request without `keepalive`, at most the bound with it.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, LOAD, project, prove, proveJson, REQUESTS, type JsonLocation } from './prove-helpers.js';

function expectSaved(entry: JsonLocation | undefined): void {
  expect(entry!.skipped).toBeNull();
  expect(entry!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
  expect(entry!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
  expect(entry!.before!.statuses).toEqual({ 200: REQUESTS });
  expect(entry!.after!.statuses).toEqual({ 200: REQUESTS });
}

describe('prove: gRPC', () => {
  it('grpc:// to an upstream without keepalive, on a cleartext http2 port: a connection per call before, reuse after', async () => {
    const site = [
      'upstream greeter { server 192.0.2.7:50051; }',
      'server {',
      '    listen 80 http2;',
      '    server_name grpc.example.com;',
      '    location /helloworld.Greeter/ { grpc_pass grpc://greeter; }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'app.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    expect(locations[0]).toMatchObject({
      pass: 'grpc_pass',
      request: { method: 'POST', scheme: 'http', protocol: 'HTTP/2', host: 'grpc.example.com', path: '/helloworld.Greeter/' },
    });
    expectSaved(locations[0]);
  });

  it('gives a server with a grpc_pass an http2 listener when it has none, and reuses connections already kept', async () => {
    const site = [
      'upstream greeter { server 192.0.2.7:50051; keepalive 8; }',
      'server {',
      '    listen 80;',
      '    location /helloworld.Greeter/ { grpc_pass greeter; }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'app.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations[0]!.request!.protocol).toBe('HTTP/2');
    expect(locations[0]!.before!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(locations[0]!.after!.statuses).toEqual({ 200: REQUESTS });
  });

  it('grpcs:// behind an ssl http2 listener: the calls over TLS, the upstream over TLS, its certificates generated', async () => {
    const site = [
      'upstream secure { server 192.0.2.8:50051; }',
      'server {',
      '    listen 443 ssl http2;',
      '    server_name secure.example.com;',
      '    ssl_certificate /nonexistent/fullchain.pem;',
      '    ssl_certificate_key /nonexistent/privkey.pem;',
      '    location /tls.Svc/ { grpc_ssl_trusted_certificate /nonexistent/ca.pem; grpc_ssl_verify on; grpc_pass grpcs://secure; }',
      '}',
      '',
    ].join('\n');
    const where = project({ 'app.conf': site });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations[0]!.request).toMatchObject({ scheme: 'https', protocol: 'HTTP/2' });
    expectSaved(locations[0]);
    const table = await prove(where, [...LOAD, '.']);
    expect(table.stdout).toContain('location /tls.Svc/  (grpc_pass, HTTP/2 over TLS)');
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it('grpc_pass to a literal address: no rule covers it yet, and the report says so (not "no finding left")', async () => {
    const site = [
      'server {',
      '    listen 80 http2;',
      '    server_name grpc.example.com;',
      '    location /helloworld.Greeter/ { grpc_pass grpc://127.0.0.1:50051; }',
      '}',
      '',
    ].join('\n');
    const where = project({ 'app.conf': site });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain(`connections ${REQUESTS} → ${REQUESTS} for ${REQUESTS} requests`);
    expect(result.stdout).toContain(
      'left after the fixes: no rule covers a grpc_pass to a literal address yet (grpc://127.0.0.1:50051): nginx gives it an ' +
        'implicit upstream, which keeps no connection; an upstream{} holding it with keepalive would (the gRPC module needs ' +
        'no other setting), written by hand',
    );
    expect(result.stdout).not.toContain('no finding left');
  });
});
