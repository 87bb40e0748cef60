// What a location's `connections` is: the distinct upstream connections that carried its requests (one reused many
// times counts once), whatever was measured before it. Locations are measured one after another in one nginx, and
// nginx keeps the idle connections of an upstream's keepalive cache from one location to the next: a location of the
// same upstream reuses them. Counting the connections nginx *opened* during a location made such a location look as
// if it had opened fewer, down to 0 (a saving that was the earlier location's), or as if a location that closes every
// connection had kept some. Real nginx, the CLI as a child process, as in prove.test.ts.
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, project, proveJson, REQUESTS } from './prove-helpers.js';

describe('prove counts each location on its own', () => {
  it('a location after another of the same upstream: its requests came on connections, never 0', async () => {
    // Both literal passes become one upstream{} with keepalive after the fixes: /b finds /a's connections idle.
    const site = [
      'server {',
      '    listen 80;',
      '    server_name app.example.com;',
      '    location /a { proxy_pass http://127.0.0.1:8080; }',
      '    location /b { proxy_pass http://127.0.0.1:8080; }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'site.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => [entry.location, entry.skipped])).toEqual([['/a', null], ['/b', null]]);
    for (const entry of locations) {
      expect(entry.before!.connections).toBe(REQUESTS);
      expect(entry.after!.connections).toBeGreaterThan(0);
      expect(entry.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
      expect(entry.after!.statuses).toEqual({ 200: REQUESTS });
    }
  });

  it('a location that closes every connection, after one that kept some: one connection per request', async () => {
    // /a reuses connections of the upstream's cache as written; /b speaks HTTP/1.0 (Connection: close) to the same
    // upstream: nginx hands it /a's idle connections first, each closed after one response, then new ones.
    const site = [
      'upstream app { server app.internal:8080; keepalive 16; }',
      'server {',
      '    listen 80;',
      '    server_name app.example.com;',
      '    location /a { proxy_http_version 1.1; proxy_set_header Connection ""; proxy_pass http://app; }',
      '    location /b { proxy_pass http://app; }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'site.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    const [a, b] = locations;
    expect(a).toMatchObject({ location: '/a', skipped: null, reuses: true });
    expect(a!.before!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(b).toMatchObject({ location: '/b', skipped: null, reuses: true });
    expect(b!.before!.connections).toBe(REQUESTS);
    expect(b!.before!.statuses).toEqual({ 200: REQUESTS });
    expect(b!.after!.connections).toBeGreaterThan(0);
    expect(b!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
  });
});
