// proxy-pass-no-upstream on run-time targets (a variable URI after a literal host), WebSocket-only locations and
// fixes that would be incomplete, and connection-upgrade-literal: the withheld reasons and the unsafe fix, which
// the fixture goldens (safe fixes only, checked with nginx 1.22) cannot show.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { proxyPassNoUpstreamRule } from '../../server/src/rules/proxy-pass-no-upstream.js';
import { connectionUpgradeLiteralRule } from '../../server/src/rules/connection-upgrade-literal.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';
import { tempTree } from '../model/support.js';

const RULES = [proxyPassNoUpstreamRule, connectionUpgradeLiteralRule];

async function setUp(files: Record<string, string>, nginxVersion?: string) {
  const root = tempTree(files);
  const main = path.join(root, Object.keys(files)[0]!);
  const docs = [{ path: main, text: readFileSync(main, 'utf8') }];
  const options: AnalyzeOptions = { readRoots: [root], ...(nginxVersion ? { nginxVersion } : {}) };
  return { root, main, docs, options };
}

async function findings(files: Record<string, string>, nginxVersion?: string) {
  const { docs, options } = await setUp(files, nginxVersion);
  return analyze(docs, options, RULES);
}

const http = (body: string) => `events {}\nhttp {\n${body}}\n`;
/** The text with each line's indentation dropped: the assertions are about lines, not the file's indent unit. */
const lines = (text: string) => text.replace(/^[ \t]+/gm, '');
const storage = (resolver: string, where: 'http' | 'server' = 'http') =>
  http(
    `${where === 'http' ? resolver : ''}  server {\n    listen 8080;\n${where === 'server' ? resolver : ''}` +
      '    location /s/ {\n      proxy_pass http://storage:10000$request_uri;\n    }\n  }\n',
  );

describe('proxy-pass-no-upstream: run-time targets', () => {
  it('reports `http://host:port$request_uri` like `https://host/path/$var`', async () => {
    const found = await findings({
      'nginx.conf': http(
        '  resolver 127.0.0.11;\n  server {\n    location /a/ { proxy_pass http://storage:10000$request_uri; }\n' +
          '    location /b/ { proxy_pass https://fonts.gstatic.com/s/$font_file; }\n' +
          '    location /c/ { proxy_pass http://$backend:10000$request_uri; }\n  }\n',
      ),
    });
    expect(found.map((f) => `${f.span.start.line + 1} ${f.ruleId}`)).toEqual(['5 proxy-pass-no-upstream', '6 proxy-pass-no-upstream']);
  });

  it('withholds the fix without a target version that has `server ... resolve`', async () => {
    const [old] = await findings({ 'nginx.conf': storage('  resolver 127.0.0.11;\n') });
    expect(old!.withheld).toMatch(/resolved at run time.*set the nginx version/);
    const [tooOld] = await findings({ 'nginx.conf': storage('  resolver 127.0.0.11;\n') }, '1.26.0');
    expect(tooOld!.withheld).toMatch(/nginx 1\.27\.3\+ can keep resolving it\)$/);
  });

  it('withholds the fix when no resolver applies, saying to add one', async () => {
    const [finding] = await findings({ 'nginx.conf': storage('') }, '1.30.0');
    expect(finding!.withheld).toBe('the target is resolved at run time and no resolver applies here: add one to http{}');
  });

  it('offers an unsafe fix from 1.27.3 with a resolver: zone, server ... resolve, keepalive', async () => {
    const { main, docs, options } = await setUp({ 'nginx.conf': storage('  resolver 127.0.0.11 valid=10s;\n') }, '1.27.3');
    const [finding] = await analyze(docs, options, RULES);
    expect(finding).toMatchObject({ unsafeFix: true, fixable: true });
    expect(finding!.withheld).toBeUndefined();
    expect(finding!.fix?.safety).toBe('unsafe');
    const safe = await fixAll(docs, options, RULES);
    expect(safe.texts.size).toBe(0);
    const fixed = (await fixAll(docs, options, RULES, { unsafe: true })).texts.get(main)!;
    expect(lines(fixed)).toContain(
      'upstream backend_storage_10000 {\nzone backend_storage_10000 64k;\nserver storage:10000 resolve;\nkeepalive 16;\n}\n',
    );
    expect(fixed).toContain('proxy_pass http://backend_storage_10000$request_uri;');
    expect(fixed).toContain('proxy_set_header Host storage:10000;');
    expect(fixed).toContain('proxy_http_version 1.1;');
    expect(fixed).not.toContain('proxy_redirect');
    // The re-check is clean, and a second run reuses the block rather than adding another.
    expect(await analyze([{ path: main, text: fixed }], options, RULES)).toEqual([]);
  });

  it('copies a server-level resolver into the upstream (an upstream only inherits http{}s)', async () => {
    const { main, docs, options } = await setUp({ 'nginx.conf': storage('    resolver 10.0.0.2 ipv6=off;\n', 'server') }, '1.30.0');
    const fixed = (await fixAll(docs, options, RULES, { unsafe: true })).texts.get(main)!;
    expect(lines(fixed)).toContain('upstream backend_storage_10000 {\nresolver 10.0.0.2 ipv6=off;\nzone backend_storage_10000 64k;\n');
  });

  it('keeps the safe fix for an IP address with a variable URI (nothing to resolve)', async () => {
    const [finding] = await findings({
      'nginx.conf': http('  server {\n    location / { proxy_pass http://127.0.0.1:8080$request_uri; }\n  }\n'),
    });
    expect(finding).toMatchObject({ fixable: true });
    expect(finding!.unsafeFix).toBeUndefined();
  });
});

describe('proxy-pass-no-upstream: WebSocket-only locations', () => {
  const ws = (value: string, version = '      proxy_http_version 1.1;\n') =>
    http(
      `  server {\n    location /ws/ {\n      proxy_pass http://127.0.0.1:3000;\n${version}      proxy_set_header Upgrade $http_upgrade;\n      proxy_set_header Connection ${value};\n    }\n  }\n`,
    );

  it.each(['upgrade', '"upgrade"', "'Upgrade'", 'UPGRADE'])('is silent with Connection %s', async (value) => {
    expect(await findings({ 'nginx.conf': ws(value) })).toEqual([]);
  });

  it('reports the same location without HTTP/1.1: nginx upgrades nothing over HTTP/1.0', async () => {
    expect((await findings({ 'nginx.conf': ws('upgrade', '') })).map((f) => f.ruleId)).toEqual(['proxy-pass-no-upstream']);
  });

  it('still reports an inherited Connection "upgrade" that the location drops with its own set', async () => {
    const config = http(
      '  server {\n    proxy_set_header Connection upgrade;\n    location / {\n      proxy_pass http://127.0.0.1:3000;\n      proxy_set_header Host $host;\n    }\n  }\n',
    );
    expect((await findings({ 'nginx.conf': config })).map((f) => f.ruleId)).toEqual(['proxy-pass-no-upstream']);
  });
});

describe('proxy-pass-no-upstream: complete or withheld', () => {
  const api = '      location /api/ {\n        proxy_pass http://localhost:3000;\n        proxy_set_header Host $host;\n      }\n';

  it('names the unreadable include that may set proxy_http_version', async () => {
    const config = http(`  server {\n    include snippets/x.conf;\n${api}  }\n`);
    const [finding] = await findings({ 'nginx.conf': config });
    expect(finding!.withheld).toBe('an include that could not be read (snippets/x.conf) may set proxy_http_version here');
    expect(finding!.fixable).toBeUndefined();
  });

  it('names the include that may set proxy_redirect when nothing else is missing (1.30: HTTP/1.1 by default)', async () => {
    const config = http(`  server {\n    include snippets/x.conf;\n${api}  }\n`);
    const [finding] = await findings({ 'nginx.conf': config }, '1.30.0');
    expect(finding!.withheld).toBe('an include that could not be read (snippets/x.conf) may set proxy_redirect here');
  });

  it('says why for a bare name, a second proxy_pass and a snippet checked without http', async () => {
    const bare = await findings({ 'nginx.conf': http('  server {\n    location / { proxy_pass http://backend; }\n  }\n') });
    expect(bare[0]!.withheld).toMatch(/^"backend" may be an upstream\{\} in a file not checked/);
    const two = await findings({
      'nginx.conf': http(
        '  server {\n    location / {\n      if ($arg_x) { proxy_pass http://127.0.0.1:4000; }\n      proxy_pass http://127.0.0.1:3000;\n    }\n  }\n',
      ),
    });
    expect(two.map((f) => f.withheld)).toEqual([expect.stringMatching(/another proxy_pass/), expect.stringMatching(/another proxy_pass/)]);
    const snippet = await findings({ 'api.conf': '# nginx-keepalive: context=location\nproxy_pass http://127.0.0.1:3000;\n' });
    for (const finding of snippet) expect(finding.withheld ?? '').not.toBe('');
  });
});

describe('connection-upgrade-literal', () => {
  const site = (connection: string, upstream = '  upstream app { server 127.0.0.1:3000; keepalive 16; }\n') =>
    http(
      `${upstream}  server {\n    location / {\n      proxy_pass http://app;\n      proxy_http_version 1.1;\n` +
        `      proxy_set_header Connection ${connection};\n    }\n  }\n`,
    );

  it('reports a literal upgrade to a keepalive upstream, once per line', async () => {
    const found = await findings({ 'nginx.conf': site('"Upgrade"') });
    expect(found.map((f) => [f.span.start.line + 1, f.ruleId, f.message])).toEqual([
      [8, 'connection-upgrade-literal', 'Connection "upgrade" is sent on every request to a keepalive upstream: use the upgrade map'],
    ]);
    expect(found[0]!.message.length).toBeLessThan(100);
    expect(found[0]!.detail).toMatch(/^proxy_pass to upstream "app": /);
  });

  it('is silent for an upstream without keepalive before 1.29.7, and reports it from 1.29.7', async () => {
    const plain = site('upgrade', '  upstream app { server 127.0.0.1:3000; }\n');
    expect(await findings({ 'nginx.conf': plain })).toEqual([]);
    expect((await findings({ 'nginx.conf': plain }, '1.30.0')).map((f) => f.ruleId)).toEqual(['connection-upgrade-literal']);
  });

  it('adds Upgrade $http_upgrade next to the Connection line and uses the map', async () => {
    const { main, docs, options } = await setUp({ 'nginx.conf': site('upgrade') });
    const fixed = (await fixAll(docs, options, RULES)).texts.get(main)!;
    expect(lines(fixed)).toContain('proxy_set_header Upgrade $http_upgrade;\nproxy_set_header Connection $connection_upgrade;\n');
    expect(lines(fixed)).toContain("map $http_upgrade $connection_upgrade {\ndefault upgrade;\n'' '';\n}");
  });
});
