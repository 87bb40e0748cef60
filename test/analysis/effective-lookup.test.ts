import { describe, expect, it } from 'vitest';
import { headerKeysOf, lookupDirective } from '../../server/src/analysis/effective-lookup.js';
import { proxyPasses, loadTree } from '../fixes/support.js';

const UPSTREAM = 'upstream app { server 127.0.0.1:5000; keepalive 4; }\n';

async function lookupAtPass(site: string, name: string, extra: Record<string, string> = {}) {
  const tree = await loadTree({ 'site.conf': `${UPSTREAM}${site}`, ...extra });
  const pass = proxyPasses(tree.workspace)[0]!;
  return lookupDirective(tree.workspace, pass.scope, name);
}

describe('lookupDirective', () => {
  it('finds the nearest defining level, like nginx', async () => {
    const found = await lookupAtPass('server {\n  proxy_http_version 1.1;\n  location / { proxy_pass http://app; }\n}\n', 'proxy_http_version');
    expect(found.kind === 'found' && found.level.context).toBe('server');
  });

  it('is unknown when a nearer level has an include that was not followed', async () => {
    const found = await lookupAtPass(
      'server {\n  proxy_http_version 1.1;\n  location / {\n    include missing.conf;\n    proxy_pass http://app;\n  }\n}\n',
      'proxy_http_version',
    );
    expect(found.kind).toBe('unknown');
  });

  it('ignores an unfollowed include above the defining level, and a glob that matched nothing', async () => {
    const found = await lookupAtPass(
      'server {\n  include missing.conf;\n  location / {\n    include conf.d/*.conf;\n    proxy_http_version 1.1;\n    proxy_pass http://app;\n  }\n}\n',
      'proxy_http_version',
    );
    expect(found.kind === 'found' && found.level.context).toBe('location');
  });

  it("reads Debian's proxy_params outside the tree as a header set without Connection", async () => {
    const found = await lookupAtPass(
      'server {\n  proxy_set_header Connection "";\n  location / {\n    include /etc/nginx/proxy_params;\n    proxy_pass http://app;\n  }\n}\n',
      'proxy_set_header',
    );
    expect(found.kind).toBe('found');
    if (found.kind !== 'found') return;
    expect(found.level.context).toBe('location');
    expect([...headerKeysOf(found)]).toEqual(['host', 'x-real-ip', 'x-forwarded-for', 'x-forwarded-proto']);
    // ...and it does not hide a proxy_http_version.
    const version = await lookupAtPass(
      'server {\n  proxy_http_version 1.1;\n  location / {\n    include /etc/nginx/proxy_params;\n    proxy_pass http://app;\n  }\n}\n',
      'proxy_http_version',
    );
    expect(version.kind === 'found' && version.level.context).toBe('server');
  });

  it('marks a definition that exists only under a template guard as conditional', async () => {
    const tree = await loadTree({
      'app.sigil': `${UPSTREAM}server {\n  location / {\n{{ if $.H }}    proxy_http_version 1.1;{{ end }}\n    proxy_pass http://app;\n  }\n}\n`,
    });
    const found = lookupDirective(tree.workspace, proxyPasses(tree.workspace)[0]!.scope, 'proxy_http_version');
    expect(found.kind === 'found' && found.conditional).toBe(true);
  });
});
