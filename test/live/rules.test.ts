// Issue 5: "a linter that only silences itself proves nothing". For each rule that affects connection reuse, a
// config that breaks reuse that way (test/live/fixtures) runs in real nginx (Debian's 1.22) in front of a Node
// upstream that counts the TCP connections it accepts. REQUESTS requests from clients that send `Connection: close`:
// before the fix nginx opens about one upstream connection per request; after `nginx-keepalive check --fix` (the real
// CLI, on a copy of the file) the CLI finds nothing and nginx opens at most WORKERS × keepalive. Where the config
// forwards WebSocket's Upgrade header, an upgrade through the fixed config still gets 101 and a working tunnel.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFastcgiPeer, type FastcgiPeer } from '../support/fastcgi-peer.js';
import { websocketUpgrade } from '../support/live-clients.js';
import { startLiveUpstream, type LiveUpstream } from '../support/live-upstream.js';
import { freePort } from '../support/nginx.js';
import {
  CONCURRENCY, REQUESTS, REUSE_RULES, WORKERS, cliFindings, cliFix, keepaliveValues, makeWorkDir, measureThroughNginx,
  readFixture, stopLeftoverNginx, withNginx, writeWithPlaceholders, type CliFinding, type CountingPeer,
} from './harness.js';

interface LiveCase {
  fixture: string;
  /** What the CLI reports on the fixture, as `rule line`. */
  findings: string[];
  peer: 'http' | 'fastcgi';
  /** The config forwards Upgrade: WebSocket must still work after the fix. */
  websocket: boolean;
  /**
   * nginx already reuses connections to this upstream before the fix (the finding is about what every request asks
   * for, not a connection lost with this upstream): measured as such instead of one connection per request.
   */
  reusesBefore?: boolean;
}

const CASES: LiveCase[] = [
  { fixture: 'upstream-keepalive.conf', findings: ['upstream-keepalive 3'], peer: 'http', websocket: false },
  { fixture: 'proxy-http-version.conf', findings: ['proxy-http-version 13'], peer: 'http', websocket: false },
  { fixture: 'connection-header-missing.conf', findings: ['connection-header-missing 14'], peer: 'http', websocket: true },
  { fixture: 'connection-header-passthrough.conf', findings: ['connection-header-passthrough 14'], peer: 'http', websocket: true },
  { fixture: 'connection-map-close.conf', findings: ['connection-map-close 4'], peer: 'http', websocket: true },
  {
    fixture: 'connection-upgrade-literal.conf',
    findings: ['connection-upgrade-literal 15'],
    peer: 'http',
    websocket: true,
    reusesBefore: true,
  },
  { fixture: 'keepalive-order.conf', findings: ['keepalive-order 4'], peer: 'http', websocket: false },
  { fixture: 'proxy-pass-no-upstream.conf', findings: ['proxy-pass-no-upstream 7'], peer: 'http', websocket: false },
  // A literal `Connection "upgrade"` in `location /` is not WebSocket-only (analysis/websocket-only.ts).
  { fixture: 'proxy-pass-no-upstream.websocket.conf', findings: ['proxy-pass-no-upstream 11'], peer: 'http', websocket: true },
  { fixture: 'fastcgi-keep-conn.conf', findings: ['fastcgi-keep-conn 15'], peer: 'fastcgi', websocket: false },
  {
    fixture: 'proxy-set-header-inheritance.conf',
    findings: ['proxy-set-header-inheritance 15', 'connection-header-missing 16'],
    peer: 'http',
    websocket: false,
  },
];

const work = makeWorkDir();
let http: LiveUpstream | undefined;
let fastcgi: FastcgiPeer | undefined;

beforeAll(async () => {
  http = await startLiveUpstream();
  fastcgi = await startFastcgiPeer();
  // Copy and fix every fixture at once: the CLI runs are independent processes.
  await Promise.all(CASES.map(prepare));
});

afterAll(async () => {
  await stopLeftoverNginx();
  await http?.close();
  await fastcgi?.close();
  work.remove();
});

interface Prepared {
  port: number;
  before: string;
  after: string;
  /** What `check --format json` reports on each copy (the fixed one after --fix). */
  beforeFindings: CliFinding[];
  afterFindings: CliFinding[];
}

const preparedCases = new Map<string, Promise<Prepared>>();

function peerOf(kind: LiveCase['peer']): CountingPeer & { port: number } {
  const peer = kind === 'http' ? http : fastcgi;
  if (!peer) throw new Error(`the ${kind} peer did not start`);
  return peer;
}

/** The fixture with its ports filled in, once as it is and once fixed by the CLI, and the CLI's findings on both. */
function prepare({ fixture, peer }: LiveCase): Promise<Prepared> {
  let prepared = preparedCases.get(fixture);
  if (!prepared) {
    prepared = freePort().then(async (port) => {
      const name = path.basename(fixture, '.conf').replaceAll('.', '-');
      const values = { LISTEN_PORT: port, UPSTREAM_PORT: peerOf(peer).port };
      const text = readFixture(fixture);
      const before = writeWithPlaceholders(path.join(work.dir, name, 'before'), 'site.conf', text, values);
      const after = writeWithPlaceholders(path.join(work.dir, name, 'after'), 'site.conf', text, values);
      const [beforeFindings] = await Promise.all([cliFindings(path.dirname(before)), cliFix(path.dirname(after))]);
      return { port, before, after, beforeFindings, afterFindings: await cliFindings(path.dirname(after)) };
    });
    preparedCases.set(fixture, prepared);
  }
  return prepared;
}

/** The rule a live fixture is about: its name up to the first dot (`proxy-pass-no-upstream.websocket.conf`). */
const ruleOf = (fixture: string): string => path.basename(fixture).split('.')[0]!;

it('every rule about connection reuse has a live fixture, named after it', () => {
  expect([...new Set(CASES.map((c) => ruleOf(c.fixture)))].sort()).toEqual([...REUSE_RULES].sort());
  for (const { fixture, findings } of CASES) {
    expect(findings.map((f) => f.split(' ')[0])).toContain(ruleOf(fixture));
  }
});

describe.each(CASES)('live: $fixture', (liveCase) => {
  const { findings, peer } = liveCase;

  it(`the CLI reports ${findings.join(', ')}`, async () => {
    const { beforeFindings } = await prepare(liveCase);
    const reported = beforeFindings.map((f) => `${f.ruleId} ${f.line}`);
    expect(reported.sort()).toEqual([...findings].sort());
  });

  it(`as it is, nginx opens ${liveCase.reusesBefore ? 'few connections (this upstream ignores what is asked)' : 'about one upstream connection per request'} (${REQUESTS} requests)`, async () => {
    const { before, port } = await prepare(liveCase);
    let keepConnRequests = 0;
    const seen = await measureThroughNginx([before], port, peerOf(peer), () => {
      keepConnRequests = fastcgi!.tally().keepConnRequests;
    });
    expect(seen.upstreamRequests).toBe(REQUESTS);
    if (liveCase.reusesBefore) expect(seen.connections).toBeLessThan(0.5 * REQUESTS);
    else expect(seen.connections).toBeGreaterThanOrEqual(0.9 * REQUESTS);
    // FastCGI: without fastcgi_keep_conn nginx never asks the application to keep the connection.
    if (peer === 'fastcgi') expect(keepConnRequests).toBe(0);
  });

  it(`after --fix, the CLI finds nothing and nginx opens at most ${WORKERS} × keepalive connections`, async () => {
    const { after, port, afterFindings } = await prepare(liveCase);
    expect(afterFindings.filter((f) => REUSE_RULES.includes(f.ruleId))).toEqual([]);
    const keepalive = keepaliveValues(readFileSync(after, 'utf8'));
    expect(keepalive).toHaveLength(1);
    // The bound holds only while no more requests are in flight than the cache keeps (see CONCURRENCY).
    expect(CONCURRENCY).toBeLessThanOrEqual(keepalive[0]!);
    let keepConnRequests = 0;
    const seen = await measureThroughNginx([after], port, peerOf(peer), () => {
      keepConnRequests = fastcgi!.tally().keepConnRequests;
    });
    expect(seen.upstreamRequests).toBe(REQUESTS);
    expect(seen.connections).toBeGreaterThanOrEqual(1);
    expect(seen.connections).toBeLessThanOrEqual(WORKERS * keepalive[0]!);
    // FastCGI: nginx now asks the application to keep the connection (FCGI_KEEP_CONN) in every request.
    if (peer === 'fastcgi') expect(keepConnRequests).toBe(REQUESTS);
  });
});

describe.each(CASES.filter((c) => c.websocket))('live: $fixture forwards Upgrade', (liveCase) => {
  it('after --fix, a WebSocket upgrade through nginx still gets 101 and a working tunnel', async () => {
    const { after, port } = await prepare(liveCase);
    const upstream = http!;
    const upgrade = await withNginx([after], port, () => {
      upstream.reset();
      return websocketUpgrade(port);
    });
    expect(upgrade.statusLine).toMatch(/^HTTP\/1\.1 101 /);
    expect(upgrade.acceptOk).toBe(true);
    expect(upgrade.echoed).toBe(upgrade.sent);
    expect(upstream.tally().upgrades).toBe(1);
  });
});
