// The editor's snippets (snippets/nginx.json, contributed in package.json): expanded with their defaults and put
// together as a user would (the map and the upstream at http level, the location in a server), they give a config
// real nginx accepts and nginx-keepalive finds nothing in, for nginx 1.22 and 1.30. A snippet that taught a
// connection-wasting habit would fail here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { nginxTest } from './support/nginx.js';

const repoRoot = path.resolve(import.meta.dirname, '..');

interface Snippet {
  prefix: string;
  body: string[];
}

const snippets = JSON.parse(readFileSync(path.join(repoRoot, 'snippets/nginx.json'), 'utf8')) as Record<string, Snippet>;
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { snippets: { language: string; path: string }[] };
};

/** VS Code's expansion with every placeholder at its default: `${1:app}` → app, `\$` → $, tabs → 4 spaces. */
function expand(snippet: Snippet, indent: string): string {
  return snippet.body
    .map((line) => indent + line.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\\\$/g, '$').replace(/\t/g, '    '))
    .join('\n');
}

function byPrefix(prefix: string): Snippet {
  const found = Object.values(snippets).find((snippet) => snippet.prefix === prefix);
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
  it('are contributed for the nginx language', () => {
    expect(manifest.contributes.snippets).toEqual([{ language: 'nginx', path: './snippets/nginx.json' }]);
    expect(Object.values(snippets).map((snippet) => snippet.prefix).sort()).toEqual(['location-keepalive', 'map-connection-upgrade', 'upstream-keepalive']);
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
