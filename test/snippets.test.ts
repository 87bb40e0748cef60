// The keepalive snippets (features/completion-snippets.ts, offered by the language server where their block is
// allowed; no static snippet file, which VS Code would offer everywhere): expanded with their defaults and put
// together as a user would (the map and the upstream at http level, the location in a server), they give a config
// real nginx accepts and nginx-keepalive finds nothing in, for nginx 1.22 and 1.30. A snippet that taught a
// connection-wasting habit would fail here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { expandSnippet, KEEPALIVE_SNIPPETS, type KeepaliveSnippet } from '../server/src/features/completion-snippets.js';
import { nginxTest } from './support/nginx.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { snippets?: unknown };
};

/** The expansion with every placeholder at its default, tabs → 4 spaces, each line indented. */
function expand(snippet: KeepaliveSnippet, indent: string): string {
  return expandSnippet(snippet)
    .split('\n')
    .map((line) => indent + line.replace(/\t/g, '    '))
    .join('\n');
}

function byPrefix(prefix: string): KeepaliveSnippet {
  const found = KEEPALIVE_SNIPPETS.find((snippet) => snippet.prefix === prefix);
  if (!found) throw new Error(`no snippet with prefix ${prefix}`);
  return found;
}

function config(tempPaths: string): string {
  return [
    'events {}',
    'http {',
    `    ${tempPaths}`,
    expand(byPrefix('map-connection-upgrade'), '    '),
    expand(byPrefix('upstream-keepalive'), '    '),
    '    server {',
    '        listen 127.0.0.1:8080;',
    expand(byPrefix('location-keepalive'), '        '),
    // What the map is for: a WebSocket location sending its variable (a map whose '' arm said close would show here).
    '        location /ws/ {',
    '            proxy_http_version 1.1;',
    '            proxy_set_header Upgrade $http_upgrade;',
    '            proxy_set_header Connection $connection_upgrade;',
    '            proxy_pass http://app;',
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
}

describe('the nginx snippets', () => {
  it('come from the language server alone (a static snippet file cannot see the context)', () => {
    expect(manifest.contributes.snippets).toBeUndefined();
    expect(KEEPALIVE_SNIPPETS.map((snippet) => snippet.prefix).sort()).toEqual(['location-keepalive', 'map-connection-upgrade', 'upstream-keepalive']);
  });

  it('expand to a config real nginx accepts', () => {
    const result = nginxTest((prefix) => config(prefix.httpTempPaths));
    expect(result.ok, result.output).toBe(true);
  });

  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`expand to a config with no finding, for nginx ${nginxVersion}`, async () => {
      const findings = await analyze([{ path: '/virtual/nginx.conf', text: config('') }], {
        nginxVersion,
        host: { readFile: () => undefined, glob: () => [], exists: () => false },
      });
      expect(findings.map((finding) => `${finding.ruleId}: ${finding.message}`)).toEqual([]);
    });
  }
});
