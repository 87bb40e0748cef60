// Issue 27: `nginx-keepalive prove` runs the user's own configuration in real nginx (Debian's 1.22) inside a private
// sandbox, in front of its counting stub, before and after the fixes `check --fix` would make. On the live fixtures
// it must report what test/live/rules.test.ts measures by hand: about one upstream connection per request before,
// at most the bound after, the same statuses; and it must leave no nginx and no temporary file behind, also on
// Ctrl-C. Every run gets its own TMPDIR, so what is left in it is what prove left.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { CORPUS_DIR } from '../corpus/manifest.js';
import { DOKKU_APPS, DOKKU_VARIANTS, DokkuHost } from '../support/dokku.js';
import { renderSigil } from '../support/render-sigil.js';
import { FIXTURES } from './harness.js';
import { CONCURRENCY, fixture, LOAD, NGINX, project, prove, proveJson, REQUESTS, type JsonLocation } from './prove-helpers.js';

/** nginx processes whose command line names `dir` (every sandbox lives in its run's TMPDIR). */
function nginxProcessesUnder(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('nginx') && cmdline.includes(dir)) found.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/** What test/live/rules.test.ts measures by hand: one connection per request as written (or reuse already). */
const FIXTURE_CASES: { fixture: string; reusesBefore?: boolean }[] = [
  { fixture: 'upstream-keepalive.conf' },
  { fixture: 'proxy-http-version.conf' },
  { fixture: 'connection-header-missing.conf' },
  { fixture: 'connection-header-passthrough.conf' },
  { fixture: 'connection-map-close.conf' },
  { fixture: 'connection-upgrade-literal.conf', reusesBefore: true },
  { fixture: 'keepalive-order.conf' },
  { fixture: 'proxy-pass-no-upstream.conf' },
  { fixture: 'proxy-pass-no-upstream.websocket.conf' },
  { fixture: 'proxy-set-header-inheritance.conf' },
];

describe('prove on the live fixtures', () => {
  it.each(FIXTURE_CASES)('$fixture: connections before ≈ requests, after ≤ concurrency, statuses unchanged', async ({ fixture: name, reusesBefore }) => {
    const where = project({ [name]: fixture(name) });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    const measured = locations.filter((entry) => entry.skipped === null);
    expect(measured.length).toBeGreaterThan(0);
    for (const entry of measured) {
      expect(entry.file).toBe(name);
      if (reusesBefore) expect(entry.before!.connections).toBeLessThanOrEqual(CONCURRENCY);
      else expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
      expect(entry.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
      expect(entry.before!.statuses).toEqual({ 200: REQUESTS });
      expect(entry.after!.statuses).toEqual({ 200: REQUESTS });
    }
    expect(readdirSync(where.tmp)).toEqual([]);
  });
});

describe('prove', () => {
  const CLEAN = [
    'upstream app { server app.internal:8080; keepalive 16; }',
    'server {',
    '    listen 443 ssl;',
    '    server_name app.example.com;',
    '    ssl_certificate /nonexistent/cert.pem;',
    '    ssl_certificate_key /nonexistent/key.pem;',
    '    location /api {',
    '        proxy_http_version 1.1;',
    '        proxy_set_header Connection "";',
    '        proxy_pass http://app;',
    '    }',
    '}',
    '',
  ].join('\n');

  it('reports reuse already there on a clean configuration (an https listener turned plain, a hostname never resolved)', async () => {
    const where = project({ 'site.conf': CLEAN });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('site.conf:10  server app.example.com  location /api');
    expect(result.stdout).toContain('reuses connections already (as written)');
    expect(result.stdout).toMatch(/upstream connections \d → \d for 60 requests across 1 location/);
  });

  it('runs a main config with its includes, user, pid, logs and ssl settings kept out of the way', async () => {
    const where = project({ 'nginx.conf': MAIN, 'sites-enabled/app': fixture('upstream-keepalive.conf') });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    expect(locations[0]).toMatchObject({ file: 'sites-enabled/app', line: 13, location: '/' });
    expect(locations[0]!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(locations[0]!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
  });

  /** Backends by host name (never to be resolved), a resolver, a pass through variables. */
  const HOSTNAMES = [
    'upstream backend { server app1.example.com:8080 max_fails=3; server app2.example.com:8080; }',
    'server {',
    '    listen 80;',
    '    server_name app.example.com;',
    '    location / { proxy_pass http://backend; }',
    '    location = /health { proxy_pass http://health.example.com:9000/status; }',
    '    location /dyn { resolver 192.0.2.53; proxy_pass http://$host.example.com; }',
    '}',
    // The other protocols' stubs, TLS both ways, OCSP stapling asked for: still nothing but loopback.
    'upstream grpc { server grpc.example.com:443; keepalive 4; }',
    'server {',
    '    listen 443 ssl http2;',
    '    server_name secure.example.com;',
    '    ssl_certificate /etc/ssl/secure.pem;',
    '    ssl_stapling on;',
    '    location /tls { proxy_pass https://tls.example.com; }',
    '    location /grpc.Svc/ { grpc_pass grpcs://grpc; }',
    '    location /py { uwsgi_pass py.example.com:3031; }',
    '    location /rb { scgi_pass rb.example.com:4000; }',
    '}',
    '',
  ].join('\n');
  /** A Debian-style main config: user, pid and logs where only root may write, ssl settings, a resolver. */
  const MAIN = [
    'user www-data;',
    'worker_processes auto;',
    'pid /run/nginx.pid;',
    'error_log /var/log/nginx/error.log;',
    'events { worker_connections 768; }',
    'http {',
    '    access_log /var/log/nginx/access.log;',
    '    ssl_protocols TLSv1.2;',
    '    resolver 192.0.2.1;',
    '    include sites-enabled/*;',
    '}',
    '',
  ].join('\n');

  it('proves an nginx -T dump read from stdin, from the dump alone (its files gone from the disk)', async () => {
    const where = project({ 'nginx.conf': 'events {}\nhttp {\n    include sites/*.conf;\n}\n', 'sites/app.conf': fixture('upstream-keepalive.conf') });
    const logs = path.join(where.tmp, '..', 'dump-logs');
    mkdirSync(logs);
    const globals = `pid ${path.join(logs, 'pid')}; error_log ${path.join(logs, 'error.log')};`;
    const args = ['-T', '-q', '-p', `${logs}/`, '-e', path.join(logs, 'startup.log'), '-c', path.join(where.dir, 'nginx.conf'), '-g', globals];
    const dump = spawnSync(NGINX, args, { encoding: 'utf8' });
    expect(dump.status, dump.stderr).toBe(0);
    expect(dump.stdout).toContain(`# configuration file ${path.join(where.dir, 'sites/app.conf')}:`);
    rmSync(path.join(where.dir, 'sites'), { recursive: true });
    const result = await prove(where, [...LOAD, '--format', 'json', '-'], undefined, dump.stdout);
    expect(result.status, result.stderr).toBe(0);
    const [location, ...others] = (JSON.parse(result.stdout) as { locations: JsonLocation[] }).locations;
    expect(others).toEqual([]);
    expect(location).toMatchObject({ file: 'sites/app.conf', line: 13, location: '/' });
    expect(location!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(location!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it('connects to nothing but loopback (strace over the CLI, nginx and its workers)', async () => {
    const where = project({ 'nginx.conf': MAIN, 'sites-enabled/app': HOSTNAMES });
    const trace = path.join(where.tmp, '..', 'strace.txt');
    const traced = spawnSync('strace', ['-f', '-qq', '-e', 'trace=connect,sendto,sendmsg', '-o', trace, process.execPath, CLI, 'prove', ...LOAD, '.'], {
      cwd: where.dir,
      env: { ...process.env, TMPDIR: where.tmp },
      encoding: 'utf8',
    });
    expect(traced.status, traced.stderr).toBe(0);
    for (const [location, how] of [['/tls', 'proxy_pass, HTTP/1.1 over TLS'], ['/grpc.Svc/', 'grpc_pass, HTTP/2 over TLS'], ['/py', 'uwsgi_pass, HTTP/1.1 over TLS']]) {
      expect(traced.stdout).toContain(`location ${location}  (${how})\n  connections`);
    }
    const calls = readFileSync(trace, 'utf8').split('\n').filter((line) => /\b(connect|sendto|sendmsg)\(/.test(line));
    const addressed = calls.filter((line) => line.includes('sa_family='));
    expect(addressed.filter((line) => line.includes('inet_addr("127.0.0.1")')).length).toBeGreaterThan(REQUESTS);
    // The only other address: glibc asking the local name-service cache for nginx's default user (getpwnam), never
    // a host name (one would show as a datagram to a name server, or a connection to a backend).
    const elsewhere = addressed.filter((line) => !line.includes('inet_addr("127.0.0.1")') && !line.includes('sun_path="/var/run/nscd/socket"'));
    expect(elsewhere).toEqual([]);
  });

  it('claims nothing for a location whose requests never reach the upstream', async () => {
    const where = project({ 'app.conf': 'server {\n    listen 80;\n    return 403;\n    location / {\n        proxy_pass http://app.internal:8080;\n    }\n}\n' });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations).toHaveLength(1);
    expect(locations[0]!.skipped).toMatch(/^the requests did not reach the upstream/);
    expect(locations[0]!.before!.statuses).toEqual({ 403: REQUESTS });
    expect(JSON.parse(result.stdout).summary).toBe('no location measured (see the reasons above)');
  });

  it('exits 1 when a location still opens a connection per request after the fixes', async () => {
    const where = project({ 'app.conf': fixture('upstream-keepalive.conf') });
    // With the rule off, its fix is not made: the measured location still loses every connection.
    const result = await prove(where, [...LOAD, '--rule', 'upstream-keepalive=off', '.']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('still opens a connection per request after the fixes');
    expect(result.stdout).toContain('left after the fixes: no finding left in this location');
  });

  it('says which finding is left, and why it has no fix, when a location still loses its connections', async () => {
    // A name without a port may be an upstream{} of a file not checked: no fix, so nginx still opens one per request.
    const where = project({ 'app.conf': 'server {\n    listen 80;\n    location / {\n        proxy_pass http://front/;\n    }\n}\n' });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain(`connections ${REQUESTS} → ${REQUESTS} for ${REQUESTS} requests`);
    expect(result.stdout).toMatch(/left after the fixes: proxy-pass-no-upstream: .*\(no fix: "front" may be an upstream\{\}/);
  });

  it('exits 2 with nginx\'s own message at the original file and line when nginx rejects the sandbox', async () => {
    const where = project({ 'app.conf': 'server {\n    listen 80;\n    no_such_directive on;\n    location / { proxy_pass http://app.internal; }\n}\n' });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown directive "no_such_directive"');
    expect(result.stderr).toContain(`${path.join(where.dir, 'app.conf')}:3`);
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it("proves a Dokku app's rendered template from stdin (dokku nginx:show-config APP | prove -)", async () => {
    const dokku = new DokkuHost();
    try {
      const template = path.join(CORPUS_DIR, 'sigil', 'dokku__dokku__plugins__nginx-vhosts__templates__nginx.conf.sigil');
      const vars = dokku.vars(DOKKU_APPS[0]!, DOKKU_VARIANTS['http and https, proxy-keepalive unset']);
      const rendered = renderSigil(readFileSync(template, 'utf8'), vars, 'nginx.conf.sigil');
      // The app's containers (10.0.0.1:5000, 10.0.0.2:5000) are replaced by the stub, never contacted.
      expect(rendered).toContain('10.0.0.1:5000');
      const where = project({});
      mkdirSync(where.dir);
      const result = await prove(where, [...LOAD, '--format', 'json', '-'], undefined, rendered);
      expect(result.status, result.stderr).toBe(0);
      const measured = (JSON.parse(result.stdout) as { locations: JsonLocation[] }).locations.filter((entry) => entry.skipped === null);
      // The https server's location / (its listener made plain); the http server only redirects there.
      expect(measured.map((entry) => [entry.location, entry.line])).toEqual([['/', 83]]);
      for (const entry of measured) {
        expect(entry.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
        expect(entry.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
        expect(entry.after!.statuses).toEqual(entry.before!.statuses);
      }
      expect(readdirSync(where.tmp)).toEqual([]);
    } finally {
      dokku.remove();
    }
  });

  it('gives a server whose listen comes from an include one port', async () => {
    const site = 'server {\n    include listen.inc;\n    location / {\n        proxy_pass http://app.internal:8080;\n    }\n}\n';
    const main = 'events {}\nhttp {\n    include site.conf;\n}\n';
    const where = project({ 'nginx.conf': main, 'site.conf': site, 'listen.inc': 'listen 443 ssl;\n' });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    expect(locations.map((entry) => entry.skipped)).toEqual([null]);
  });

  it('exits 2 on a template, saying how to prove what it renders to', async () => {
    const sigil = readFileSync(path.join(FIXTURES, '..', '..', '..', 'examples', 'dokku', 'nginx.conf.sigil'), 'utf8');
    const where = project({ 'nginx.conf.sigil': sigil });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('nginx.conf.sigil is a template: render it first');
    expect(result.stderr).toContain('dokku nginx:show-config APP | nginx-keepalive prove -');
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it('exits 2 when there is no nginx binary', async () => {
    const where = project({ 'app.conf': CLEAN });
    const result = await prove(where, ['--nginx', path.join(where.tmp, 'missing-nginx'), '.']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('not an executable nginx binary');
  });

  it('stops nginx and removes its prefix on timeout', async () => {
    const where = project({ 'app.conf': fixture('upstream-keepalive.conf') });
    const result = await prove(where, ['--requests', '100000', '--concurrency', '2', '--timeout', '1', '--nginx', NGINX, '.']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('timed out after 1 s');
    expect(readdirSync(where.tmp)).toEqual([]);
    expect(nginxProcessesUnder(where.tmp)).toEqual([]);
  });

  it.each([
    { signal: 'SIGINT' as const, status: 130, said: 'prove interrupted', how: 'Ctrl-C' },
    { signal: 'SIGTERM' as const, status: 143, said: 'prove terminated (SIGTERM)', how: 'kill, or an editor closing' },
  ])('stops nginx and removes its prefix on $signal to the CLI ($how)', async ({ signal, status, said }) => {
    const where = project({ 'app.conf': fixture('upstream-keepalive.conf') });
    let interrupt: Promise<void> = Promise.resolve();
    const result = await prove(where, ['--requests', '100000', '--concurrency', '2', '--nginx', NGINX, '.'], (pid) => {
      interrupt = (async () => {
        // Wait until nginx runs in the sandbox (a real process to leave behind), then interrupt.
        while (nginxProcessesUnder(where.tmp).length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        process.kill(pid, signal);
      })();
    });
    await interrupt;
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(`${said}; stopped nginx and removed `);
    expect(readdirSync(where.tmp)).toEqual([]);
    expect(nginxProcessesUnder(where.tmp)).toEqual([]);
  });
});
