import { describe, expect, it } from 'vitest';
import { passes } from '../../server/src/analysis/passes.js';
import { keepConnEdits } from '../../server/src/fixes/keep-conn.js';
import type { ResolvedOptions } from '../../server/src/util/types.js';
import { applyToTree, loadTree, readTree } from './support.js';

const options: ResolvedOptions = { nginxVersion: undefined, keepaliveConnections: 16 };
const UPSTREAM = 'upstream php {\n    server 127.0.0.1:9000;\n    keepalive 8;\n}\n';

async function fixed(server: string, nth = 0) {
  const tree = await loadTree({ 'site.conf': `${UPSTREAM}${server}` });
  const pass = passes(tree.workspace).filter((p) => p.name === 'fastcgi_pass')[nth]!;
  const edits = keepConnEdits(tree.workspace, pass, options);
  return { edits, text: readTree(await applyToTree(tree, edits), 'site.conf').slice(UPSTREAM.length) };
}

describe('keepConnEdits', () => {
  it('inserts fastcgi_keep_conn on before the first fastcgi_pass of the location', async () => {
    const { text } = await fixed('server {\n    location / {\n        fastcgi_pass php;\n    }\n}\n');
    expect(text).toBe('server {\n    location / {\n        fastcgi_keep_conn on;\n        fastcgi_pass php;\n    }\n}\n');
  });

  it("turns the location's own off on, and overrides an enclosing off in the location", async () => {
    expect((await fixed('server {\n    location / {\n        fastcgi_keep_conn OFF;\n        fastcgi_pass php;\n    }\n}\n')).text).toBe(
      'server {\n    location / {\n        fastcgi_keep_conn on;\n        fastcgi_pass php;\n    }\n}\n',
    );
    expect((await fixed('server {\n    fastcgi_keep_conn off;\n    location / {\n        fastcgi_pass php;\n    }\n}\n')).text).toBe(
      'server {\n    fastcgi_keep_conn off;\n    location / {\n        fastcgi_keep_conn on;\n        fastcgi_pass php;\n    }\n}\n',
    );
  });

  it('has nothing to do when on is inherited, or for a proxy_pass', async () => {
    expect((await fixed('server {\n    fastcgi_keep_conn on;\n    location / {\n        fastcgi_pass php;\n    }\n}\n')).edits).toEqual([]);
    const tree = await loadTree({ 'site.conf': `${UPSTREAM}server {\n    location / {\n        proxy_pass http://php;\n    }\n}\n` });
    expect(keepConnEdits(tree.workspace, passes(tree.workspace)[0]!, options)).toEqual([]);
  });
});
