// The editor's "Prove connection reuse" without the editor: client/src/prove-run.ts runs the built dist/cli.js with
// real nginx (/usr/sbin/nginx) as the command does, and prove-report.ts / prove-html.ts turn its JSON into the rows
// and the page the webview shows. Every run gets a TMPDIR of its own, so what is left in it is what prove left.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderProvePage } from '../../client/src/prove-html.js';
import { proveRows, readOutcome, type ProveJson, type ProveOutcome } from '../../client/src/prove-report.js';
import { proveArguments, runProveCli, type ProveSettings } from '../../client/src/prove-run.js';
import { CLI } from '../cli/helpers.js';

const NO_SETTINGS: ProveSettings = { nginxPath: '', pathMap: {} };
const CONTEXT = { subject: 'Proved: the workspace folder app', nonce: 'n0nce' };

/** An upstream without keepalive (line 1) behind /api/, and a regex location prove cannot make a path for. */
const SITE = [
  'upstream app {',
  '    server 127.0.0.1:3000;',
  '}',
  'server {',
  '    listen 80;',
  '    server_name app.test;',
  '    location /api/ {',
  '        proxy_pass http://app;',
  '    }',
  '    location ~ (?<=x)y {',
  '        proxy_pass http://app;',
  '    }',
  '}',
  '',
].join('\n');

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function project(files: Record<string, string>): { dir: string; tmp: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'nk-prove-view-'));
  roots.push(root);
  const dir = path.join(root, 'folder');
  const tmp = path.join(root, 'tmp');
  mkdirSync(dir);
  mkdirSync(tmp);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return { dir, tmp };
}

function run(where: { dir: string; tmp: string }, settings = NO_SETTINGS, signal?: AbortSignal) {
  return runProveCli(process.execPath, CLI, { cwd: where.dir, paths: ['.'] }, settings, { signal, env: { ...process.env, TMPDIR: where.tmp } });
}

function report(outcome: ProveOutcome): ProveJson {
  if (outcome.kind !== 'report') throw new Error(`prove did not report: ${JSON.stringify(outcome)}`);
  return outcome.report;
}

describe('the prove view on a real run', () => {
  it('shows the location as measured before and after the fixes, the skipped one with its reason, and the summary', async () => {
    const where = project({ 'site.conf': SITE });
    const exit = await run(where);
    expect(exit.code, exit.stderr).toBe(0);
    const outcome = readOutcome(exit);
    const rows = proveRows(report(outcome));
    expect(rows.map((row) => [row.where, row.location, row.verdict])).toEqual([
      ['site.conf:8', '/api/', 'fixed'],
      ['site.conf:11', '~ (?<=x)y', 'skipped'],
    ]);
    const [api, regex] = rows;
    // 200 requests with Connection: close: one upstream connection each as written, at most the 8 in flight fixed.
    expect(api!.before!.connections).toBeGreaterThanOrEqual(180);
    expect(api!.after!.connections).toBeLessThanOrEqual(8);
    expect(api!.statuses).toBe('200×200 → 200×200');
    expect(api!.request).toBe('GET app.test/api/');
    expect(regex!.verdictText).toMatch(/^not measured: regex location: /);

    const html = renderProvePage(outcome as Exclude<ProveOutcome, { kind: 'cancelled' }>, CONTEXT);
    expect(html).toContain(`<td class="num before">${api!.before!.connections}</td><td class="num after">${api!.after!.connections}</td>`);
    expect(html).toContain('<code class="location">~ (?&#60;=x)y</code><br><span class="where">site.conf:11</span>');
    expect(html).toContain(`<span class="request">200 × GET app.test/api/</span>`);
    expect(html).toContain(`<p class="summary">upstream connections ${api!.before!.connections} → ${api!.after!.connections} for 200 requests across 1 location</p>`);
    expect(html).toContain('<svg class="bar"');
    expect(readdirSync(where.tmp)).toEqual([]);
  });

  it("shows nginx's own error when prove cannot run (exit 2)", async () => {
    const where = project({ 'site.conf': SITE.replace('proxy_pass http://app;\n    }\n    location ~', 'proxy_set_header X-A $nosuchvar;\n        proxy_pass http://app;\n    }\n    location ~') });
    const exit = await run(where);
    expect(exit.code).toBe(2);
    const outcome = readOutcome(exit);
    expect(outcome).toMatchObject({ kind: 'failed', status: 2 });
    const html = renderProvePage(outcome as Exclude<ProveOutcome, { kind: 'cancelled' }>, CONTEXT);
    expect(html).toContain('prove could not run (exit 2):');
    expect(html).toContain('nginx: [emerg] unknown &#34;nosuchvar&#34; variable');
  });

  it('passes the nginx setting on as --nginx, and the pathMap setting as --path-map', async () => {
    const where = project({ 'site.conf': SITE });
    const outcome = readOutcome(await run(where, { nginxPath: ' /nonexistent/nginx ', pathMap: {} }));
    expect(outcome).toEqual({ kind: 'failed', status: 2, message: '/nonexistent/nginx: not an executable nginx binary' });
    expect(proveArguments({ cwd: '/w', paths: ['.'] }, { nginxPath: '', pathMap: { '/etc/nginx': 'deploy/nginx' } })).toEqual([
      'prove', '--format', 'json', '--path-map', '/etc/nginx=deploy/nginx', '--', '.',
    ]);
  });

  it('proves an unsaved document through stdin', async () => {
    const where = project({});
    const exit = await runProveCli(process.execPath, CLI, { cwd: where.dir, paths: ['-'], input: SITE }, NO_SETTINGS, {
      env: { ...process.env, TMPDIR: where.tmp },
    });
    expect(exit.code, exit.stderr).toBe(0);
    expect(proveRows(report(readOutcome(exit)))[0]).toMatchObject({ location: '/api/', verdict: 'fixed' });
  });

  it('cancelling sends prove SIGINT: it stops, and removes its sandbox, before it exits', async () => {
    const where = project({ 'site.conf': SITE });
    const abort = new AbortController();
    // Cancelled the moment prove makes its prefix: it listens for SIGINT from before it makes it, so even a cancel
    // that early is cleaned up, never met by the default action.
    const watcher = watch(where.tmp, (_event, name) => {
      if (name?.startsWith('nginx-keepalive-prove-')) abort.abort();
    });
    try {
      const exit = await run(where, NO_SETTINGS, abort.signal);
      expect(abort.signal.aborted).toBe(true);
      expect(exit).toMatchObject({ cancelled: true, code: null, signal: 'SIGINT' });
      expect(exit.stderr).toMatch(/prove interrupted; stopped nginx and removed /);
      expect(readOutcome(exit)).toEqual({ kind: 'cancelled' });
    } finally {
      watcher.close();
    }
    expect(readdirSync(where.tmp)).toEqual([]);
  });
});

/** A report as the CLI prints one (docs/prove.md), for what a quick real run does not produce. */
function handMade(locations: Partial<ProveJson['locations'][number]>[]): ProveJson {
  const side = (connections: number, statuses: Record<string, number> = { 200: 10 }) => ({ connections, upstreamRequests: 10, requests: 10, statuses });
  return {
    nginx: { binary: '/usr/sbin/nginx', version: '1.22.1' },
    requests: 10,
    concurrency: 2,
    unsafeFixes: false,
    bound: 2,
    summary: 'upstream connections 30 → 13 for 30 requests across 3 locations',
    locations: locations.map((entry) => ({
      file: 'a.conf', line: 1, server: '_', location: '/', request: { method: 'GET', host: '_', path: '/' },
      before: side(10), after: side(2), websocket: null, skipped: null, why: [], reuses: true,
      statusesChanged: false, websocketBroken: false, ...entry,
    })),
  };
}

describe('the prove view on reports a quick run does not produce', () => {
  const still = {
    location: '/still',
    after: { connections: 10, upstreamRequests: 10, requests: 10, statuses: { 200: 10 } },
    reuses: false,
    why: ['proxy-pass-no-upstream: proxy_pass to a literal address'],
  };
  const changed = { location: '/changed', after: { connections: 1, upstreamRequests: 10, requests: 10, statuses: { 502: 10 } }, statusesChanged: true };
  const websocket = { location: '/ws', websocket: { before: 101, after: 0 }, websocketBroken: true };
  const unreached = { location: '/unreached', skipped: 'the requests did not reach the upstream', reuses: null, request: null };
  const already = { location: '/already', before: { connections: 2, upstreamRequests: 10, requests: 10, statuses: { 0: 10 } } };
  const rows = proveRows(handMade([still, changed, websocket, unreached, already]));

  it('words each verdict, and says what the fixes broke and what is left', () => {
    expect(rows.map((row) => [row.location, row.verdict, row.verdictText])).toEqual([
      ['/still', 'still', 'still opens a connection per request after the fixes (over 2)'],
      ['/changed', 'fixed', 'reuses connections after the fixes'],
      ['/ws', 'fixed', 'reuses connections after the fixes'],
      ['/unreached', 'skipped', 'not measured: the requests did not reach the upstream'],
      ['/already', 'already', 'reuses connections already (as written)'],
    ]);
    expect(rows[0]!.why).toEqual(still.why);
    expect(rows[1]!.warnings).toEqual(['the responses changed with the fixes']);
    expect(rows[1]!.statuses).toBe('10×200 → 10×502');
    expect(rows[2]!.websocket).toBe('101 → no reply');
    expect(rows[2]!.warnings).toEqual(['the WebSocket upgrade no longer works after the fixes']);
    // Measured, but never reached the pass: the statuses say what answered.
    expect(rows[3]!.statuses).toBe('10×200 → 10×200');
    expect(rows[4]!.statuses).toBe('10×no reply → 10×200');
  });

  it('renders exit 1 with the rows that fail it, escaping what the configuration wrote', () => {
    const report = handMade([{ ...still, location: '~ ^/<img src=x onerror=alert(1)>' }]);
    const html = renderProvePage({ kind: 'report', report, status: 1, notes: ['note: a "note"'] }, { ...CONTEXT, notes: ['Unsaved changes are not measured'] });
    expect(html).not.toContain('<img');
    expect(html).toContain('~ ^/&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain('left after the fixes: proxy-pass-no-upstream: proxy_pass to a literal address');
    expect(html).toContain('(exit 1)');
    expect(html).toContain('<p class="note">note: a &#34;note&#34;</p>');
    expect(html).toContain('<p class="note">Unsaved changes are not measured</p>');
    // No script may run: the page allows none, and its one stylesheet carries the nonce.
    expect(html).toContain("script-src 'none'");
    expect(html).toContain('<style nonce="n0nce">');
    expect(html).not.toMatch(/<script/i);
  });

  it('renders a report of 150,000 locations (no call spreads them into its arguments)', () => {
    const many = handMade(Array.from({ length: 150_000 }, (_, index) => ({ location: `/l${index}` })));
    const html = renderProvePage({ kind: 'report', report: many, status: 0, notes: [] }, CONTEXT);
    expect(html).toContain('<code class="location">/l149999</code>');
  });

  it('reads output that is not a report as a failure, saying how prove ended', () => {
    expect(readOutcome({ code: 1, signal: null, stdout: 'not json', stderr: '', cancelled: false })).toEqual({
      kind: 'failed', status: 1, message: 'not json',
    });
    expect(readOutcome({ code: null, signal: 'SIGKILL', stdout: '', stderr: '', cancelled: false })).toEqual({
      kind: 'failed', status: null, message: 'prove ended with signal SIGKILL',
    });
  });
});
