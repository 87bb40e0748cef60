// Issue 27: named locations (`location @app`) are measured through what reaches them: a location of the same server
// whose `try_files … @app` finds no file (the sandbox's root cannot exist), or whose `error_page 404 … @php` fires
// because it only serves files. The request sent is that location's; one nothing reaches is skipped with why. The
// sandbox has no files, so PHP's guards against missing scripts (`try_files $uri =404;`, `if (!-f …) { return 404; }`)
// are left out of a location that passes: prove's request stands for an existing script.
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

  it('measures PHP locations guarded by try_files $uri =404 or if (!-f …) { return 404; }, as for an existing script', async () => {
    const site = [
      'upstream php { server 127.0.0.1:9000; }',
      'server {',
      '    listen 80;',
      '    root /var/www/html;',
      '    location ~ \\.php$ {',
      '        try_files $uri =404;',
      '        fastcgi_pass php;',
      '    }',
      '    location ^~ /legacy/ {',
      '        if (!-f $document_root$fastcgi_script_name) { return 404; }',
      '        fastcgi_pass php;',
      '    }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'php.conf': site }));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/php\.conf:6: try_files left out: prove's request stands for a file that exists/);
    expect(locations).toHaveLength(2);
    for (const entry of locations) {
      expect(entry.skipped).toBeNull();
      expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
      expect(entry.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
      expect(entry.before!.statuses).toEqual({ 200: REQUESTS });
    }
  });
});
