// A fix withheld for a reason leaves a finding that is right (issue 13: "a half-fixable case proves, with the counting
// upstream, that the remaining finding is right"). A proxy_pass to a literal address sits in a location that includes
// a snippet outside the checked directory: that snippet may set proxy_http_version, so the CLI withholds the upstream
// extraction and says why, rather than apply half a fix. `check --fix` then changes nothing, the finding stays with
// its reason, and real nginx in front of the counting upstream indeed opens a connection per request.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveUpstream, type LiveUpstream } from '../support/live-upstream.js';
import { freePort } from '../support/nginx.js';
import { REQUESTS, makeWorkDir, measureThroughNginx, runCliAsync, stopLeftoverNginx } from './harness.js';

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

interface JsonMessage {
  ruleId: string;
  line: number;
  fixWithheld?: string;
}

async function findings(dir: string): Promise<JsonMessage[]> {
  const result = await runCliAsync(dir, ['check', '--format', 'json', '.']);
  return (JSON.parse(result.stdout) as Array<{ messages: JsonMessage[] }>).flatMap((file) => file.messages);
}

describe('live: a withheld fix', () => {
  it('keeps its finding with the reason, changes nothing, and nginx does open a connection per request', async () => {
    const port = await freePort();
    const outside = path.join(work.dir, 'outside', 'proxy.conf');
    mkdirSync(path.dirname(outside), { recursive: true });
    // Nothing here sets HTTP/1.1 or clears Connection: the checker could not know that, and says so.
    writeFileSync(outside, 'proxy_set_header X-Forwarded-Proto $scheme;\n');
    const checked = path.join(work.dir, 'checked');
    mkdirSync(checked, { recursive: true });
    const site = path.join(checked, 'site.conf');
    const text = [
      'server {',
      `    listen 127.0.0.1:${port};`,
      '    location / {',
      `        include ${outside};`,
      `        proxy_pass http://127.0.0.1:${http!.port};`,
      '    }',
      '}',
      '',
    ].join('\n');
    writeFileSync(site, text);

    const before = await findings(checked);
    const pass = before.find((finding) => finding.ruleId === 'proxy-pass-no-upstream');
    expect(pass?.line).toBe(5);
    expect(pass?.fixWithheld).toMatch(/^an include that could not be read \(.*proxy\.conf\) may set proxy_[a-z_]+ here: map its directory with --path-map$/);

    const fixed = await runCliAsync(checked, ['check', '--fix', '.']);
    expect(fixed.status).toBe(1);
    expect(readFileSync(site, 'utf8')).toBe(text);
    expect((await findings(checked)).map((finding) => finding.ruleId)).toContain('proxy-pass-no-upstream');

    const seen = await measureThroughNginx([site], port, http!);
    expect(seen.upstreamRequests).toBe(REQUESTS);
    expect(seen.connections).toBeGreaterThanOrEqual(0.9 * REQUESTS);
  });
});
