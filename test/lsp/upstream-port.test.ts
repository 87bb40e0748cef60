// The language server gives nginx's answer for `proxy_pass http://backend:8000` with `upstream backend` in another
// file, as `check` does on the folder (test/cli/upstream-port.test.ts): over real stdio, the site file opened alone.
// (Without the main file the server analyzes the opened site file apart from its sibling, which `check conf.d` does
// not: that is the adapters' workspace difference, not this rule's.)
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const SITE =
  'server {\n    listen 127.0.0.1:18080;\n    location / {\n        proxy_pass http://backend:8000;\n' +
  '        proxy_http_version 1.1;\n        proxy_set_header Connection "";\n    }\n}\n';

it('reports the port on an upstream{} name at the pass when a main file includes both', async () => {
  const withMain = {
    'nginx.conf': 'events {}\nhttp {\n    include conf.d/*.conf;\n}\n',
    'conf.d/a-upstream.conf': 'upstream backend {\n    server 127.0.0.1:9000;\n    keepalive 8;\n}\n',
    'conf.d/b-site.conf': SITE,
  };
  for (const files of [withMain]) {
    const dir = tree(files);
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'conf.d/b-site.conf'), SITE);
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(published.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}: ${d.message}`), Object.keys(files).join(' ')).toEqual([
      'directive@4: upstream "backend" may not have port 8000: remove the port from proxy_pass',
    ]);
    await client.stop();
  }
});
