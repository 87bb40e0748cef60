// Issue 27, beyond plain proxying: a location that carries WebSockets gets one real upgrade through nginx as written
// and as fixed (101 and a byte echoed by the stub, both times), and an upgrade the fixes break fails the run;
// fastcgi_pass locations are measured against the FastCGI stub, which closes unless nginx asks FCGI_KEEP_CONN.
import { describe, expect, it } from 'vitest';
import type { ProveOptions } from '../../server/src/cli/args.js';
import type { SideResult } from '../../server/src/cli/prove/measure.js';
import { compareSides } from '../../server/src/cli/prove/report.js';
import type { PlannedLocation } from '../../server/src/engine/sandbox-config.js';
import { CONCURRENCY, fixture, LOAD, project, prove, proveJson, REQUESTS } from './prove-helpers.js';

describe('prove: WebSocket upgrades', () => {
  it.each(['connection-upgrade-literal.conf', 'proxy-pass-no-upstream.websocket.conf'])(
    '%s: the upgrade answers 101 before and after the fixes, and the table says so',
    async (name) => {
      const where = project({ [name]: fixture(name) });
      const { result, locations } = await proveJson(where);
      expect(result.status, result.stderr).toBe(0);
      expect(locations.map((entry) => entry.websocket)).toEqual([{ before: 101, after: 101 }]);
      const table = await prove(where, [...LOAD, '.']);
      expect(table.stdout).toContain('websocket upgrade 101 → 101 (works)');
    },
  );

  it('sends no upgrade to a location that does not forward one', async () => {
    const { result, locations } = await proveJson(project({ 'app.conf': fixture('upstream-keepalive.conf') }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => entry.websocket)).toEqual([null]);
  });

  it('reports the status nginx gave when the upgrade does not get through (Connection cleared)', async () => {
    const site = [
      'upstream app { server 127.0.0.1:8080; keepalive 16; }',
      'server {',
      '    listen 80;',
      '    location /ws {',
      '        proxy_http_version 1.1;',
      '        proxy_set_header Upgrade $http_upgrade;',
      '        proxy_set_header Connection "";',
      '        proxy_pass http://app;',
      '    }',
      '}',
      '',
    ].join('\n');
    const { result, locations } = await proveJson(project({ 'app.conf': site }));
    // Not broken by the fixes (it never worked): the exit is about reuse, which holds.
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => entry.websocket)).toEqual([{ before: 200, after: 200 }]);
  });
});

describe('prove: an upgrade the fixes broke', () => {
  const plan: PlannedLocation = {
    file: '/srv/app.conf', line: 5, server: 'localhost', location: '/ws', port: 1, path: '/ws', skipped: null, lines: [4, 9], websocket: true,
    pass: 'proxy_pass', tls: false, protocol: 'HTTP/1.1', grpc: false,
  };
  const measured = { connections: 2, upstreamRequests: REQUESTS, requests: REQUESTS, statuses: { 200: REQUESTS } };
  const side = (websocket: number): SideResult => ({ locations: [{ plan, measured, websocket }], notes: [] });
  const options = { concurrency: CONCURRENCY } as ProveOptions;

  it('is marked broken only when 101 before turns into something else after', () => {
    expect(compareSides(side(101), side(502), options, '/srv', []).locations[0]).toMatchObject({
      websocket: { before: 101, after: 502 },
      websocketBroken: true,
      reuses: true,
    });
    expect(compareSides(side(101), side(101), options, '/srv', []).locations[0]!.websocketBroken).toBe(false);
    expect(compareSides(side(200), side(502), options, '/srv', []).locations[0]!.websocketBroken).toBe(false);
  });
});

describe('prove: FastCGI', () => {
  it('fastcgi-keep-conn.conf: a connection per request as written, at most the bound with fastcgi_keep_conn on', async () => {
    const { result, locations } = await proveJson(project({ 'fastcgi-keep-conn.conf': fixture('fastcgi-keep-conn.conf') }));
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    const [entry] = locations;
    expect(entry!.skipped).toBeNull();
    expect(entry!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(entry!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(entry!.before!.statuses).toEqual({ 200: REQUESTS });
    expect(entry!.after!.statuses).toEqual({ 200: REQUESTS });
  });

  it('sends a unix: socket and a literal address to the stub: answered, never pooled (no upstream{})', async () => {
    const site = [
      'server {',
      '    listen 80;',
      '    location /php { fastcgi_keep_conn on; fastcgi_pass unix:/run/php/php-fpm.sock; }',
      '    location /app { fastcgi_keep_conn on; fastcgi_pass 192.0.2.10:9000; }',
      '}',
      '',
    ].join('\n');
    const { locations } = await proveJson(project({ 'app.conf': site }));
    expect(locations.map((entry) => [entry.location, entry.skipped])).toEqual([['/php', null], ['/app', null]]);
    for (const entry of locations) {
      expect(entry.before!.statuses).toEqual({ 200: REQUESTS });
      expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    }
    // No rule reports a literal fastcgi_pass yet: the report says so, and what would make nginx reuse connections.
    const remedy = ': nginx gives it an implicit upstream, which keeps no connection; an upstream{} holding it with keepalive, and fastcgi_keep_conn on, would, written by hand';
    expect(locations.map((entry) => entry.why)).toEqual([
      [`no rule covers a fastcgi_pass to a socket yet (unix:/run/php/php-fpm.sock)${remedy}`],
      [`no rule covers a fastcgi_pass to a literal address yet (192.0.2.10:9000)${remedy}`],
    ]);
  });
});

describe('prove: uwsgi and SCGI', () => {
  // nginx's uwsgi and SCGI modules end each response at its Content-Length and close the upstream connection even
  // with `keepalive` in the upstream (the stubs never close one themselves): one connection per request, measured.
  const site = [
    'upstream py { server 192.0.2.5:3031; keepalive 16; }',
    'upstream rb { server 192.0.2.6:4000; keepalive 16; }',
    'server {',
    '    listen 80;',
    '    server_name app.example.com;',
    '    location /py { uwsgi_param REQUEST_METHOD $request_method; uwsgi_pass py; }',
    '    location /py-socket { uwsgi_pass unix:/run/uwsgi/app.sock; }',
    '    location /rb { scgi_param REQUEST_METHOD $request_method; scgi_pass rb; }',
    '    location /rb-address { scgi_pass 192.0.2.9:4000; }',
    '}',
    '',
  ].join('\n');

  it('measures each against its counting stub: answered, a connection per request before and after, and says why', async () => {
    const where = project({ 'app.conf': site });
    const { result, locations } = await proveJson(where);
    // Not a failure: no fix can make nginx keep these connections.
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => [entry.location, entry.pass, entry.skipped])).toEqual([
      ['/py', 'uwsgi_pass', null], ['/py-socket', 'uwsgi_pass', null], ['/rb', 'scgi_pass', null], ['/rb-address', 'scgi_pass', null],
    ]);
    for (const entry of locations) {
      expect(entry.before!.statuses).toEqual({ 200: REQUESTS });
      expect(entry.after!.statuses).toEqual({ 200: REQUESTS });
      expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
      expect(entry.after!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
      expect(entry.reuses).toBe(false);
      expect(entry.noKeepalive).toMatch(/^nginx's (uwsgi|SCGI) module keeps no upstream connection/);
    }
    const table = await prove(where, [...LOAD, '.']);
    expect(table.stdout).toContain("location /py  (uwsgi_pass, HTTP/1.1)\n  connections");
    expect(table.stdout).toContain("nginx's SCGI module keeps no upstream connection (it has no keepalive for SCGI): no fix can change that");
    expect(table.stdout).not.toContain('left after the fixes');
  });
});
