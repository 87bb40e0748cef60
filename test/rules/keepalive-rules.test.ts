// Rule behaviour a fixture cannot express: option values, severities, and configurations nginx itself rejects
// (fixtures' valid- files must pass real nginx -t).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
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

  it('does not report keepalive 0 before 1.29.7 (a configuration error nginx reports itself)', async () => {
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
