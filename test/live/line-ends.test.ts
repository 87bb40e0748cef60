// Line ends as nginx reads them (issue 26 item 7): only LF ends a `#` comment, so a `keepalive 16;` after a lone CR
// is comment text, though an editor shows it on a line of its own. The checker must read it so too: the upstream has
// no keepalive (real nginx opens a connection per request), and after `check --fix` it does reuse them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveUpstream, type LiveUpstream } from '../support/live-upstream.js';
import { freePort } from '../support/nginx.js';
import { CONCURRENCY, REQUESTS, cliFindings, cliFix, makeWorkDir, measureThroughNginx, stopLeftoverNginx, WORKERS } from './harness.js';

const work = makeWorkDir();
let http: LiveUpstream | undefined;

beforeAll(async () => {
  http = await startLiveUpstream();
});

afterAll(async () => {
  await stopLeftoverNginx();
  await http?.close();
  work.remove();
});

describe('live: a lone carriage return inside a comment', () => {
  it('hides the keepalive after it from nginx, and so from the checker; --fix then makes nginx reuse connections', async () => {
    const port = await freePort();
    const site = path.join(work.dir, 'site.conf');
    writeFileSync(
      site,
      [
        'upstream app {',
        `    server 127.0.0.1:${http!.port}; # primary\rkeepalive 16;`,
        '}',
        'server {',
        `    listen 127.0.0.1:${port};`,
        '    location / {',
        '        proxy_http_version 1.1;',
        '        proxy_set_header Connection "";',
        '        proxy_pass http://app;',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    expect((await cliFindings(work.dir)).map((finding) => finding.ruleId)).toEqual(['upstream-keepalive']);
    const before = await measureThroughNginx([site], port, http!);
    expect(before.upstreamRequests).toBe(REQUESTS);
    expect(before.connections).toBeGreaterThanOrEqual(0.9 * REQUESTS);

    await cliFix(work.dir);
    expect(readFileSync(site, 'utf8')).toContain('# primary\rkeepalive 16;');
    expect(await cliFindings(work.dir)).toEqual([]);
    const after = await measureThroughNginx([site], port, http!);
    expect(after.upstreamRequests).toBe(REQUESTS);
    expect(after.connections).toBeLessThanOrEqual(WORKERS * CONCURRENCY);
  });
});
