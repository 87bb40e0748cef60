// Rule behaviour a fixture cannot express: option values, severities, and configurations nginx itself rejects
// (fixtures' valid- files must pass real nginx -t).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { applyEdits } from '../../server/src/fixes/edits.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';

async function findings(text: string, options: AnalyzeOptions = {}, path = '/virtual/site.conf') {
  return (await analyze([{ path, text }], { host: { readFile: () => undefined, glob: () => [], exists: () => false }, ...options }))
    .filter((finding) => finding.ruleId !== 'include');
}

describe('upstream-keepalive', () => {
  it('uses the keepaliveConnections setting in the message and the fix', async () => {
    const text = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  location / {\n    proxy_pass http://app;\n  }\n}\n';
    const [finding] = (await findings(text, { keepaliveConnections: 64 })).filter((f) => f.ruleId === 'upstream-keepalive');
    expect(finding?.message).toContain('"keepalive 64;"');
    expect(applyEdits(text, finding!.fix!.edits)).toContain('upstream app {\n  server 127.0.0.1:3000;\n  keepalive 64;\n}\n');
  });

  it('offers no fix for an upstream no checked pass uses, and says why', async () => {
    const [finding] = await findings('upstream app {\n  server 127.0.0.1:3000;\n}\n');
    expect(finding?.fix).toBeUndefined();
    expect(finding?.fixable).toBeUndefined();
    expect(finding?.withheld).toBe('no pass in the checked files uses it (check them together)');
    // What its passes need is named all the same, for both protocols.
    expect(finding?.detail).toContain('proxy_http_version 1.1');
    expect(finding?.detail).toContain('fastcgi_keep_conn on');
  });

  it('completes the fix with the location\'s own HTTP/1.1 when an unreadable include above may set it', async () => {
    const text = [
      'upstream app {\n  server 127.0.0.1:3000;\n}',
      'server {\n  include snippets/x.conf;',
      '  location / {\n    proxy_set_header Host $host;\n    proxy_set_header Connection "";\n    proxy_pass http://app;\n  }\n}\n',
    ].join('\n');
    const [finding] = (await findings(text)).filter((f) => f.ruleId === 'upstream-keepalive');
    expect(finding?.withheld).toBeUndefined();
    const fixed = applyEdits(text, finding!.fix!.edits);
    expect(fixed).toContain('  keepalive 16;\n}');
    // Written in the location, it is the effective one whatever the include holds (nginx's nearest level wins).
    expect(fixed).toMatch(/location \/ \{\n(.*\n)*\s*proxy_http_version 1\.1;\n\s*proxy_pass http:\/\/app;/);
  });

  it('withholds the fix, naming the include, when an unreadable include in the location may set HTTP/1.0', async () => {
    const text = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  location / {\n    include snippets/x.conf;\n    proxy_pass http://app;\n  }\n}\n';
    const [finding] = (await findings(text)).filter((f) => f.ruleId === 'upstream-keepalive');
    expect(finding?.fixable).toBeUndefined();
    expect(finding?.withheld).toBe('an include that could not be read (snippets/x.conf) may set proxy_http_version here');
  });

  it("reports Dokku's opt-in as information, at the upstream's name", async () => {
    const text = 'upstream {{ $.APP }} {\n{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}\n  server {{ $.IP }};\n}\n';
    const [finding] = await findings(text, {}, '/virtual/nginx.conf.sigil');
    expect(finding).toMatchObject({ ruleId: 'upstream-keepalive', severity: 'info' });
    expect(text.slice(finding!.span.startOffset, finding!.span.endOffset)).toBe('{{ $.APP }}');
  });

  it('reports keepalive 0 from 1.29.7 as information naming the cost, with a fix only --unsafe-fixes applies', async () => {
    const text = 'upstream app {\n  server 127.0.0.1:3000;\n  keepalive 0;\n}\nserver {\n  location / {\n    proxy_pass http://app;\n  }\n}\n';
    const host = { readFile: () => undefined, glob: () => [], exists: () => false };
    for (const nginxVersion of ['1.29.7', '1.30.5', '1.31.6']) {
      const [finding] = await findings(text, { nginxVersion });
      expect(finding).toMatchObject({ ruleId: 'upstream-keepalive', severity: 'info', unsafeFix: true });
      expect(finding!.message).toBe('"keepalive 0" opens a new connection for every request: use "keepalive 16;" unless meant');
      expect(finding!.detail).toContain('on purpose');
      const docs = [{ path: '/virtual/site.conf', text }];
      expect((await fixAll(docs, { nginxVersion, host })).texts.size).toBe(0);
      const fixed = (await fixAll(docs, { nginxVersion, host }, undefined, { unsafe: true })).texts.get('/virtual/site.conf');
      expect(fixed).toContain('  keepalive 16;\n');
    }
  });

  it('does not report keepalive 0 with no target (a configuration error before 1.29.7: the directive rule says so for such a target)', async () => {
    expect(await findings('upstream app {\n  server a;\n  keepalive 0;\n}\n')).toEqual([]);
  });
});

describe('upstream-keepalive in a stream snippet checked alone', () => {
  it('reports nothing and inserts nothing: its server proxies outside a location, so it is stream (no keepalive there)', async () => {
    const text = 'upstream db {\n  server 127.0.0.1:5432;\n}\nserver {\n  listen 5433;\n  proxy_pass db;\n}\n';
    expect(await findings(text)).toEqual([]);
  });

  it("reports nothing in kubernetes-ingress's TransportServer templates (real stream configs from the corpus)", async () => {
    const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'corpus', 'templated');
    for (const flavour of ['nginx', 'nginx-plus']) {
      const file = path.join(corpus, `nginx__kubernetes-ingress__internal__configs__version2__${flavour}.transportserver.tmpl`);
      const text = readFileSync(file, 'utf8');
      expect(text, flavour).toMatch(/^upstream \{\{ \$u\.Name \}\} \{$/m);
      expect(await findings(text, {}, `/virtual/${flavour}.transportserver.tmpl`), flavour).toEqual([]);
    }
  });
});

describe('proxy-pass-no-upstream', () => {
  it('leaves `host:port` to the directive rule when an upstream is named `host` (nginx rejects it: "may not have port")', async () => {
    const text = 'upstream app { server 127.0.0.1:3000; keepalive 8; }\nserver { location / { proxy_http_version 1.1; proxy_set_header Connection ""; proxy_pass http://app:8080; } }\n';
    expect((await findings(text)).map((f) => f.ruleId)).toEqual(['directive']);
  });

  it('reports a pass before a syntax error further on in its server, but offers no fix into that block', async () => {
    const text = 'server {\n  location / {\n    proxy_pass http://127.0.0.1:3000;\n  }\n  location /x {\n    {x_config}\n  }\n}\n';
    const [finding, ...rest] = (await findings(text)).filter((f) => f.ruleId !== 'syntax');
    expect(rest).toEqual([]);
    expect(finding?.ruleId).toBe('proxy-pass-no-upstream');
    expect(finding?.withheld).toBe('a block around this pass holds a syntax error, where nginx stops reading: fix that first');
    expect(finding?.fix).toBeUndefined();
  });

  it('offers no fix into a block left open at the end of the file (it holds that error)', async () => {
    const text = 'server {\n  location / {\n    proxy_pass http://127.0.0.1:3000;\n  }\n';
    const [finding] = (await findings(text)).filter((f) => f.ruleId !== 'syntax');
    expect(finding?.withheld).toBe('a block around this pass holds a syntax error, where nginx stops reading: fix that first');
  });

  it('is silent in stream {}', async () => {
    const text = 'events {}\nstream { server { listen 1234; proxy_pass 127.0.0.1:5432; } }\n';
    expect(await findings(text, {}, '/virtual/nginx.conf')).toEqual([]);
  });
});

describe('keepalive-order', () => {
  it('is silent from 1.29.7 on', async () => {
    const text = 'upstream app {\n  keepalive 16;\n  ip_hash;\n  server a;\n}\n';
    expect((await findings(text)).map((f) => f.ruleId)).toEqual(['keepalive-order']);
    expect(await findings(text, { nginxVersion: '1.29.7' })).toEqual([]);
  });
});

describe('the version gates of 1.29.4 and 1.29.7', () => {
  const site = (upstreamBody: string, locationBody: string) =>
    `upstream app {\n  server a;\n${upstreamBody}}\nserver {\n  location / {\n    proxy_pass http://app;\n${locationBody}  }\n}\n`;
  const said = async (text: string, nginxVersion?: string) =>
    (await findings(text, nginxVersion ? { nginxVersion } : {})).map((f) => `${f.ruleId}: ${f.message}`);

  it('takes proxy_http_version 2 (1.29.4+) for a keepalive version that sends no Connection: close', async () => {
    const http2 = site('  keepalive 16;\n', '    proxy_http_version 2;\n');
    for (const version of [undefined, '1.29.4', '1.29.6', '1.30.5', '1.31.6']) expect(await said(http2, version)).toEqual([]);
  });

  it('leaves proxy_http_version 2 before 1.29.4 to the directive rule, which names the release', async () => {
    const http2 = site('  keepalive 16;\n', '    proxy_http_version 2;\n');
    expect(await said(http2, '1.29.3')).toEqual([
      'directive: invalid value "2" in "proxy_http_version" directive: use 1.0, 1.1 ("2" needs nginx 1.29.4+)',
    ]);
  });

  it('still reports an explicit Connection close over HTTP/2', async () => {
    const text = site('  keepalive 16;\n', '    proxy_http_version 2;\n    proxy_set_header Connection close;\n');
    expect((await findings(text, { nginxVersion: '1.29.4' })).map((f) => f.ruleId)).toEqual(['connection-header-missing']);
  });

  it('does not blame a dropped Connection "" for closing connections over HTTP/2', async () => {
    const server = (location: string) =>
      `upstream app {\n  server a;\n  keepalive 16;\n}\nserver {\n  proxy_set_header Connection "";\n  location / {\n    proxy_pass http://app;\n${location}  }\n}\n`;
    const detail = async (location: string) =>
      (await findings(server(location), { nginxVersion: '1.29.4' })).find((f) => f.ruleId === 'proxy-set-header-inheritance')?.detail;
    expect(await detail('    proxy_http_version 1.1;\n    proxy_set_header Host $host;\n')).toContain('nginx sends "Connection: close"');
    const http2 = await detail('    proxy_http_version 2;\n    proxy_set_header Host $host;\n');
    expect(http2).toContain('Connection is not sent to the upstream.');
    expect(http2).not.toContain('Connection: close');
  });

  it('knows keepalive N local and keepalive 0 from 1.29.7, and what nginx says before', async () => {
    const local = site('  keepalive 16 local;\n', '    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n');
    expect(await said(local, '1.29.6')).toEqual([
      'directive: invalid number of arguments in "keepalive" directive: it takes 1 (2 from nginx 1.29.7)',
    ]);
    expect(await said(local, '1.29.7')).toEqual([]);
    expect(await said(site('  keepalive 0;\n', ''), '1.22.1')).toEqual([
      'directive: invalid value "0" in "keepalive" directive: use a number above 0 ("0" needs nginx 1.29.7+)',
    ]);
  });
});

describe('CONNECT tunnels (tunnel_pass, nginx 1.31.0+)', () => {
  const tunnel = (upstreamBody: string) =>
    `upstream egress {\n  server 10.0.0.1:3128;\n${upstreamBody}}\nserver {\n  listen 3128;\n  tunnel_pass egress;\n}\n`;
  // tunnel_pass is not in the directive table yet (it reads releases up to 1.30): its directive finding is left out.
  const keepaliveFindings = async (text: string, nginxVersion: string) =>
    (await findings(text, { nginxVersion })).filter((f) => f.ruleId !== 'directive').map((f) => f.ruleId);

  it('does not ask for keepalive on an upstream only tunnels use: nginx never caches a tunnel', async () => {
    expect(await keepaliveFindings(tunnel(''), '1.31.6')).toEqual([]);
    expect(await keepaliveFindings(tunnel('  keepalive 0;\n'), '1.31.6')).toEqual([]);
    // A proxy_pass to the same upstream is a user keepalive helps.
    const shared = tunnel('  keepalive 0;\n').replace('  tunnel_pass egress;\n', '  tunnel_pass egress;\n  location / {\n    proxy_pass http://egress;\n  }\n');
    expect(await keepaliveFindings(shared, '1.31.6')).toEqual(['upstream-keepalive']);
  });
});
