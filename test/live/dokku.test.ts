// Dokku end to end, live: the current nginx.conf.sigil (the corpus copy dokku.test.ts also reads) fixed by the real
// CLI, rendered before and after with Go's text/template for two apps as Dokku renders them (an app name with a `-`,
// an http and an https listener, two containers in DOKKU_APP_WEB_LISTENERS pointing at a counting Node upstream on
// 127.0.0.1 and 127.0.0.2), both apps' files included in one http block of real nginx, as Dokku includes them.
// dokku.test.ts checks the findings and nginx -t for the template fixed by fixAll over many variable sets; this file
// is about what the CLI's fix does to real traffic: before, about one upstream connection per request; after,
// at most WORKERS × keepalive, with the https listener, the second app and WebSocket still working.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../corpus/manifest.js';
import { DokkuHost, type DokkuApp } from '../support/dokku.js';
import { get, httpsGet, websocketUpgrade } from '../support/live-clients.js';
import { startLiveUpstream, UPSTREAM_BODY, type LiveUpstream } from '../support/live-upstream.js';
import { freePort, nginxTestSnippets } from '../support/nginx.js';
import { renderSigil } from '../support/render-sigil.js';
import {
  CONCURRENCY, REQUESTS, WORKERS, cliFindings, cliFix, keepaliveValues, makeWorkDir, measureThroughNginx,
  stopLeftoverNginx,
} from './harness.js';

const TEMPLATE = path.join(CORPUS_DIR, 'sigil', 'dokku__dokku__plugins__nginx-vhosts__templates__nginx.conf.sigil');

/** Dokku's proxy-keepalive setting: unset (the default) or set with `dokku nginx:set <app> proxy-keepalive 8`. */
const SCENARIOS = [
  { label: 'proxy-keepalive unset', proxyKeepalive: '', keepaliveAfterFix: 16 },
  { label: 'proxy-keepalive 8', proxyKeepalive: '8', keepaliveAfterFix: 8 },
];

interface LiveApp {
  app: DokkuApp;
  upstream: LiveUpstream;
  httpPort: number;
  httpsPort: number;
}

const work = makeWorkDir();
const dokku = new DokkuHost();
const apps: LiveApp[] = [];
let beforeDir = '';
let afterDir = '';

async function liveApp(name: string, hosts: readonly string[]): Promise<LiveApp> {
  const upstream = await startLiveUpstream(hosts);
  const listeners = hosts.map((host) => `${host}:${upstream.port}`);
  return { app: { name, listeners }, upstream, httpPort: await freePort(), httpsPort: await freePort() };
}

beforeAll(async () => {
  apps.push(await liveApp('my-app', ['127.0.0.1', '127.0.0.2']), await liveApp('api-v2', ['127.0.0.1']));
  beforeDir = path.join(work.dir, 'before');
  afterDir = path.join(work.dir, 'after');
  for (const dir of [beforeDir, afterDir]) {
    mkdirSync(dir);
    copyFileSync(TEMPLATE, path.join(dir, 'nginx.conf.sigil'));
  }
  await cliFix(afterDir);
});

afterAll(async () => {
  await stopLeftoverNginx();
  await Promise.all(apps.map(({ upstream }) => upstream.close()));
  dokku.remove();
  work.remove();
});

/** The template in `dir` rendered for `live` as Dokku would, on loopback only, with its ports. */
function render(dir: string, { app, upstream, httpPort, httpsPort }: LiveApp, proxyKeepalive: string): string {
  const vars = dokku.vars(app, {
    PROXY_PORT_MAP: `http:${httpPort}:${upstream.port} https:${httpsPort}:${upstream.port}`,
    PROXY_UPSTREAM_PORTS: String(upstream.port),
    PROXY_SSL_PORT: String(httpsPort),
    PROXY_KEEPALIVE: proxyKeepalive,
    SSL_INUSE: 'true',
    NGINX_BIND_ADDRESS_IP4: '127.0.0.1',
    NGINX_BIND_ADDRESS_IP6: '::1',
  });
  return renderSigil(readFileSync(path.join(dir, 'nginx.conf.sigil'), 'utf8'), vars, 'nginx.conf.sigil');
}

/** Both apps rendered and written where nginx can include them; returns the files and the texts. */
function renderAll(dir: string, label: string, proxyKeepalive: string): { files: string[]; texts: string[] } {
  const texts = apps.map((live) => render(dir, live, proxyKeepalive));
  const out = path.join(work.dir, 'rendered', path.basename(dir), label.replace(/\W+/g, '-'));
  mkdirSync(out, { recursive: true });
  const files = texts.map((text, index) => {
    const file = path.join(out, `${apps[index]!.app.name}.conf`);
    writeFileSync(file, text);
    return file;
  });
  return { files, texts };
}

describe('the CLI on Dokku nginx.conf.sigil', () => {
  // Each of its three `include {{ $.DOKKU_ROOT }}/{{ $.APP }}/nginx.conf.d/*.conf;` gets a note (information): the
  // app's own locations there are not checked, before or after the fix.
  const notes = (findings: Awaited<ReturnType<typeof cliFindings>>) => findings.filter((f) => f.ruleId === 'include');

  it('reports the Connection passthrough and the upstream without keepalive', async () => {
    const findings = await cliFindings(beforeDir);
    expect(findings.filter((f) => f.ruleId !== 'include').map((f) => f.ruleId).sort()).toEqual(['connection-header-passthrough', 'upstream-keepalive']);
    expect(notes(findings).map((f) => f.severity)).toEqual([0, 0, 0]);
  });

  it('--fix leaves no finding but the notes on the templated includes', async () => {
    const findings = await cliFindings(afterDir);
    expect(findings.filter((f) => f.ruleId !== 'include')).toEqual([]);
    expect(notes(findings)).toHaveLength(3);
  });
});

describe.each(SCENARIOS)('Dokku, $label, live', ({ label, proxyKeepalive, keepaliveAfterFix }) => {
  it('two apps rendered before and after --fix pass nginx -t in one http block', () => {
    const before = renderAll(beforeDir, label, proxyKeepalive).texts;
    const after = renderAll(afterDir, label, proxyKeepalive).texts;
    // Each fixed app file defines the same map: nginx must take the second definition of $connection_upgrade.
    for (const text of after) expect(text).toMatch(/^map \$http_upgrade \$connection_upgrade \{$/m);
    for (const texts of [before, after]) {
      const result = nginxTestSnippets(texts);
      expect(result.ok, result.output).toBe(true);
    }
  });

  it(`as Dokku renders it, nginx opens about one upstream connection per request (${REQUESTS} requests)`, async () => {
    const [myApp] = apps;
    const { files, texts } = renderAll(beforeDir, label, proxyKeepalive);
    // With the opt-in the upstream already has keepalive: the passthrough alone then loses every connection.
    expect(keepaliveValues(texts[0]!)).toEqual(proxyKeepalive ? [Number(proxyKeepalive)] : []);
    let perHost: Record<string, number> = {};
    const seen = await measureThroughNginx(files, myApp!.httpPort, myApp!.upstream, () => {
      perHost = myApp!.upstream.tally().perHost;
    });
    expect(seen.upstreamRequests).toBe(REQUESTS);
    expect(seen.connections).toBeGreaterThanOrEqual(0.9 * REQUESTS);
    // Both containers take turns (round robin), and neither keeps its connections.
    expect(Object.values(perHost).every((count) => count >= 0.4 * REQUESTS), JSON.stringify(perHost)).toBe(true);
  });

  it(`after --fix, at most ${WORKERS} × keepalive connections; https, the other app, WebSocket still work`, async () => {
    const [myApp, apiV2] = apps;
    const { files, texts } = renderAll(afterDir, label, proxyKeepalive);
    // The app's own proxy-keepalive setting is honoured; without one, the fix's default.
    expect(keepaliveValues(texts[0]!)).toEqual([keepaliveAfterFix]);
    expect(CONCURRENCY).toBeLessThanOrEqual(keepaliveAfterFix);
    const seen = await measureThroughNginx(files, myApp!.httpPort, myApp!.upstream, async () => {
      expect(await httpsGet(myApp!.httpsPort)).toEqual({ status: 200, body: UPSTREAM_BODY });
      apiV2!.upstream.reset();
      expect(await get('raw-http/1.1', apiV2!.httpPort)).toEqual({ status: 200, body: UPSTREAM_BODY });
      expect(apiV2!.upstream.tally().requests).toBe(1);
      const upgrade = await websocketUpgrade(myApp!.httpPort);
      expect(upgrade.statusLine).toMatch(/^HTTP\/1\.1 101 /);
      expect(upgrade.echoed).toBe(upgrade.sent);
    });
    expect(seen.upstreamRequests).toBe(REQUESTS);
    expect(seen.connections).toBeGreaterThanOrEqual(1);
    expect(seen.connections).toBeLessThanOrEqual(WORKERS * keepaliveAfterFix);
  });
});
