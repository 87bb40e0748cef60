// Line ends as nginx reads them (issue 26 item 7): only LF ends a `#` comment, so a `keepalive 16;` after a lone CR
// is comment text, though an editor shows it on a line of its own. The checker must read it so too: the upstream has
// no keepalive (real nginx opens a connection per request), and after `check --fix` it does reuse them. The lone CR
// is reported (lone-carriage-return) so that it is seen.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveUpstream, type LiveUpstream } from '../support/live-upstream.js';
import { freePort } from '../support/nginx.js';
import { CONCURRENCY, REQUESTS, cliFindings, makeWorkDir, measureThroughNginx, runCliAsync, stopLeftoverNginx, WORKERS } from './harness.js';

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
    // The lone CR itself is reported too, so that what an editor shows as a line of its own is seen to be comment.
    expect((await cliFindings(work.dir)).map((finding) => finding.ruleId)).toEqual(['upstream-keepalive', 'lone-carriage-return']);
    const before = await measureThroughNginx([site], port, http!);
    expect(before.upstreamRequests).toBe(REQUESTS);
    expect(before.connections).toBeGreaterThanOrEqual(0.9 * REQUESTS);

    // The lone CR's warning stays (its fix is the author's choice), so --fix exits 1.
    expect((await runCliAsync(work.dir, ['check', '--fix', '.'])).status).toBe(1);
    expect(readFileSync(site, 'utf8')).toContain('# primary\rkeepalive 16;');
    expect((await cliFindings(work.dir)).map((finding) => finding.ruleId)).toEqual(['lone-carriage-return']);
    const after = await measureThroughNginx([site], port, http!);
    expect(after.upstreamRequests).toBe(REQUESTS);
    expect(after.connections).toBeLessThanOrEqual(WORKERS * CONCURRENCY);
  });
});
