// Issue 27: regex locations (`location ~`, `~*`) are measured with a request path generated from the pattern
// (engine/regex-path.ts), checked against the pattern, and nginx must really route it there: a path another location
// answers first never reaches the upstream, and prove then claims nothing for it.
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, project, proveJson, REQUESTS } from './prove-helpers.js';

const SITE = [
  'upstream app { server app.internal:8080; }',
  'upstream php { server 127.0.0.1:9000; }',
  'server {',
  '    listen 80;',
  '    server_name app.example.com;',
  '    location ~ ^/api/(v1|v2)/(.*)$ {',
  '        proxy_pass http://app;',
  '    }',
  '    location ~* \\.php$ {',
  '        fastcgi_pass php;',
  '    }',
  '    location ~ (?=x) {',
  '        proxy_pass http://app;',
  '    }',
  '}',
  '',
].join('\n');

describe('prove: regex locations', () => {
  it('sends a path generated from each pattern, and measures what the fixes save there', async () => {
    const { result, locations } = await proveJson(project({ 'app.conf': SITE }));
    expect(result.status, result.stderr).toBe(0);
    const [api, php, lookahead] = locations as (typeof locations[number] & { request: { path: string } | null })[];
    expect(api!.request!.path).toBe('/api/v1/');
    expect(api!.skipped).toBeNull();
    expect(api!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(api!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(api!.after!.statuses).toEqual({ 200: REQUESTS });
    expect(php!.request!.path).toBe('/prove.php');
    expect(php!.skipped).toBeNull();
    expect(php!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(php!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(lookahead!.skipped).toMatch(/^regex location: group construct/);
  });

  it('claims nothing for a regex location whose path another location answers first', async () => {
    const site = [
      'upstream app { server app.internal:8080; }',
      'server {',
      '    listen 80;',
      '    location ^~ /api/ { return 403; }',
      '    location ~ ^/api/.+$ {',
      '        proxy_pass http://app;',
      '    }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'app.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    expect(locations[0]!.skipped).toMatch(/^the requests did not reach the upstream/);
    expect(locations[0]!.before!.statuses).toEqual({ 403: REQUESTS });
  });
});
