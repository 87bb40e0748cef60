// Issue 27: named locations (`location @app`) are measured through what reaches them: a location of the same server
// whose `try_files … @app` finds no file (the sandbox's root cannot exist), or whose `error_page 404 … @php` fires
// because it only serves files. The request sent is that location's; one nothing reaches is skipped with why.
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, project, proveJson, REQUESTS } from './prove-helpers.js';

const SITE = [
  'upstream app { server 10.0.0.9:80; }',
  'upstream php { server 127.0.0.1:9000; }',
  'server {',
  '    listen 80;',
  '    server_name shop.example.com;',
  '    root /var/www/shop;',
  '    location / {',
  '        try_files $uri $uri/ @app;',
  '    }',
  '    location @app {',
  '        proxy_pass http://app;',
  '    }',
  '    location /legacy {',
  '        error_page 404 = @php;',
  '    }',
  '    location @php {',
  '        fastcgi_pass php;',
  '    }',
  '    location @orphan {',
  '        proxy_pass http://app;',
  '    }',
  '}',
  '',
].join('\n');

type Entry = Awaited<ReturnType<typeof proveJson>>['locations'][number] & { request: { path: string; via?: string } | null };

describe('prove: named locations', () => {
  it('measures a named location through the try_files or error_page that reaches it, and skips one nothing reaches', async () => {
    const { result, locations } = await proveJson(project({ 'site.conf': SITE }));
    expect(result.status, result.stderr).toBe(0);
    const [app, php, orphan] = locations as Entry[];
    expect(app!.location).toBe('@app');
    expect(app!.skipped).toBeNull();
    expect(app!.request!.path).toBe('/');
    expect(app!.request!.via).toMatch(/^location \/, try_files at .*site\.conf:8 \(no file in the sandbox\)$/);
    expect(app!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(app!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(app!.after!.statuses).toEqual({ 200: REQUESTS });
    expect(php!.skipped).toBeNull();
    expect(php!.request!.path).toBe('/legacy');
    expect(php!.request!.via).toMatch(/^location \/legacy, error_page 404 at .*site\.conf:14$/);
    expect(php!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(php!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(orphan!.skipped).toMatch(/^named location: no location of this server sends a request prove can make to @orphan/);
  });
});
