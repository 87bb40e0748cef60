// Cases the fixtures cannot express without tripping other rules (an upstream without keepalive is
// upstream-keepalive's finding), run with only the connection rules.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { connectionHeaderPassthroughRule } from '../../server/src/rules/connection-header-passthrough.js';
import { connectionMapCloseRule } from '../../server/src/rules/connection-map-close.js';
import { UNKNOWN_CONTEXT } from '../../server/src/fixes/placement.js';
import { tempTree } from '../model/support.js';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const RULES = [connectionHeaderPassthroughRule, connectionMapCloseRule];

async function findings(files: Record<string, string>, nginxVersion?: string) {
  const root = tempTree(files);
  const main = Object.keys(files)[0]!;
  const docs = [{ path: path.join(root, main), text: readFileSync(path.join(root, main), 'utf8') }];
  const found = await analyze(docs, { readRoots: [root], ...(nginxVersion ? { nginxVersion } : {}) }, RULES);
  return found.map((f) => `${path.relative(root, f.file)}:${f.span.start.line + 1} ${f.ruleId}`);
}

const DOCS_MAP = "map $http_upgrade $connection_upgrade {\n  default upgrade;\n  '' close;\n}\n";
const site = (upstreamBody: string) =>
  `${DOCS_MAP}upstream app {\n${upstreamBody}}\nserver {\n  location / {\n    proxy_pass http://app;\n    proxy_http_version 1.1;\n    proxy_set_header Upgrade $http_upgrade;\n    proxy_set_header Connection $connection_upgrade;\n  }\n}\n`;

describe('connection-map-close and the upstream', () => {
  it('is silent when the map only feeds an upstream without keepalive (before 1.29.7)', async () => {
    expect(await findings({ 'app.conf': site('  server 127.0.0.1:5000;\n') })).toEqual([]);
  });

  it('reports the same upstream from 1.29.7, where it keeps connections by default', async () => {
    expect(await findings({ 'app.conf': site('  server 127.0.0.1:5000;\n') }, '1.30.0')).toEqual(['app.conf:3 connection-map-close']);
  });

  it('is silent for keepalive 0 at 1.30 (keepalive disabled)', async () => {
    expect(await findings({ 'app.conf': site('  server 127.0.0.1:5000;\n  keepalive 0;\n') }, '1.30.0')).toEqual([]);
  });

  it('counts a keepalive under a template guard (Dokku opt-in) as keepalive', async () => {
    const sigil = site('{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}\n  server 127.0.0.1:5000;\n');
    expect(await findings({ 'nginx.conf.sigil': sigil })).toEqual(['nginx.conf.sigil:3 connection-map-close']);
  });

  it('reports a map in an included file once, at its own line', async () => {
    const files = {
      'nginx.conf': 'events {}\nhttp {\n  include maps.conf;\n  include site.conf;\n}\n',
      'maps.conf': DOCS_MAP,
      'site.conf': site('  server 127.0.0.1:5000;\n  keepalive 16;\n').replace(DOCS_MAP, ''),
    };
    expect(await findings(files)).toEqual(['maps.conf:3 connection-map-close']);
  });
});

describe('connection-header-passthrough', () => {
  it('reports a snippet included into two locations once', async () => {
    const files = {
      'app.conf': 'server {\n  location /a/ { include ws.conf; }\n  location /b/ { include ws.conf; }\n}\n',
      'ws.conf': 'proxy_set_header Connection $http_connection;\n',
    };
    expect(await findings(files)).toEqual(['ws.conf:1 connection-header-passthrough']);
  });

  it('offers no map for a snippet checked alone whose context is unknown, and says why', async () => {
    const root = tempTree({ 'snippets/proxy.conf': 'proxy_set_header Connection $http_connection;\n' });
    const file = path.join(root, 'snippets/proxy.conf');
    const [finding, ...rest] = await analyze([{ path: file, text: readFileSync(file, 'utf8') }], { readRoots: [root] }, RULES);
    expect(rest).toEqual([]);
    expect(finding?.ruleId).toBe('connection-header-passthrough');
    expect(finding?.fix).toBeUndefined();
    expect(finding!.withheld).toBe(UNKNOWN_CONTEXT);
  });

  it('fixes the same snippet checked with the file including it in a location: the map goes to its http level', async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n  server {\n    location / { include snippets/proxy.conf; proxy_pass http://127.0.0.1:1; }\n  }\n}\n',
      'snippets/proxy.conf': 'proxy_set_header Connection $http_connection;\n',
    });
    const docs = ['nginx.conf', 'snippets/proxy.conf'].map((name) => {
      const file = path.join(root, name);
      return { path: file, text: readFileSync(file, 'utf8') };
    });
    const [finding] = (await analyze(docs, { readRoots: [root] }, RULES)).filter((f) => f.ruleId === 'connection-header-passthrough');
    expect(finding?.withheld).toBeUndefined();
    expect(finding?.fix?.edits.map((edit) => path.relative(root, edit.file)).sort()).toEqual(['nginx.conf', 'snippets/proxy.conf']);
  });

  it('ignores values that are not exactly $http_connection and headers other than Connection', async () => {
    const files = {
      'app.conf':
        'server {\n  location / {\n    proxy_set_header Connection "$http_connection, te";\n    proxy_set_header X-Connection $http_connection;\n    proxy_set_header Connection{{ $.X }} $http_connection;\n  }\n}\n',
    };
    expect(await findings(files)).toEqual([]);
  });
});

describe('suppressions as the docs show them', () => {
  it('silence each rule at its line', async () => {
    const files = {
      'app.conf':
        "map $http_upgrade $connection_upgrade {\n  default upgrade;\n  # nginx-keepalive-ignore connection-map-close: reason\n  '' close;\n}\n" +
        'upstream app {\n  server 127.0.0.1:5000;\n  keepalive 16;\n}\nserver {\n  location / {\n    proxy_pass http://app;\n' +
        '    proxy_set_header Connection $connection_upgrade;\n  }\n  location /b/ {\n' +
        '    # nginx-keepalive-ignore connection-header-passthrough: reason\n    proxy_set_header Connection $http_connection;\n  }\n}\n',
    };
    expect(await findings(files)).toEqual([]);
  });
});

describe('connection-header-missing fix titles', () => {
  const isolated = { readFile: () => undefined, glob: () => [], exists: () => false };
  async function title(text: string): Promise<string | undefined> {
    const found = await analyze([{ path: '/virtual/site.conf', text }], { host: isolated });
    return found.find((finding) => finding.ruleId === 'connection-header-missing')?.fix?.title;
  }
  const upstream = 'upstream app {\n  server 127.0.0.1:3000;\n  keepalive 16;\n}\n';

  it('name the shared level the Connection line goes to, which other locations inherit', async () => {
    const text = `http {\n${upstream}server {\n  proxy_set_header Host $host;\n  location / {\n    proxy_http_version 1.1;\n    proxy_pass http://app;\n  }\n}\n}\n`;
    expect(await title(text)).toBe('Clear the Connection header on the server level, for every location inheriting it');
  });

  it('stay short when the line goes into the pass own location', async () => {
    const text = `http {\n${upstream}server {\n  location / {\n    proxy_http_version 1.1;\n    proxy_pass http://app;\n  }\n}\n}\n`;
    expect(await title(text)).toBe('Clear the Connection header');
  });
});
