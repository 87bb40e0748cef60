import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveProxyHeaders } from '../../server/src/analysis/inheritance.js';
import { passes } from '../../server/src/analysis/passes.js';
import { allScopes, type Scope } from '../../server/src/analysis/scopes.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { mergeEdits } from '../../server/src/fixes/edit-set.js';
import { connectionHeaderMissingRule } from '../../server/src/rules/connection-header-missing.js';
import {
  clearConnectionEdits,
  http11Edits,
  proxyReuseEdits,
  proxyReuseEditsForPasses,
} from '../../server/src/fixes/proxy-reuse.js';
import type { ResolvedOptions } from '../../server/src/util/types.js';
import type { Workspace } from '../../server/src/model/workspace.js';
import { nginxTest, wrapInclude } from '../support/nginx.js';
import { applyToTree, fixToFixpoint, loadTree, proxyPasses, readTree, type Tree } from './support.js';

const legacy: ResolvedOptions = { nginxVersion: undefined, keepaliveConnections: 16 };
const modern: ResolvedOptions = { nginxVersion: [1, 30, 0], keepaliveConnections: 16 };
const UPSTREAM = 'upstream app {\n    server 127.0.0.1:5000;\n    keepalive 16;\n}\n';

/** A site file (http-level content) with the upstream and one server holding `body`. */
function site(body: string, serverHead = ''): string {
  return `${UPSTREAM}server {\n    listen 127.0.0.1:8080;\n${serverHead}${body}}\n`;
}

type Helper = typeof http11Edits;

/** The site's text after `helper`'s edits for its nth proxy_pass. */
async function fixedWith(helper: Helper, text: string, options = legacy, nth = 0, extra: Record<string, string> = {}) {
  const tree = await loadTree({ 'site.conf': text, ...extra });
  const pass = proxyPasses(tree.workspace)[nth]!;
  const edits = helper(tree.workspace, pass, options);
  const after = await applyToTree(tree, edits);
  return { edits, tree: after, text: readTree(after, 'site.conf') };
}

function nginxAccepts(tree: Tree, files: string[]): void {
  const outcome = nginxTest((prefix) => {
    for (const file of files) writeFileSync(path.join(prefix.dir, file), readTree(tree, file));
    return wrapInclude(path.join(prefix.dir, files[0]!), 'http', prefix);
  });
  expect(outcome.ok, outcome.output).toBe(true);
}

describe('http11Edits', () => {
  it('inserts proxy_http_version 1.1 before the proxy_pass when no level sets it (default 1.0)', async () => {
    const text = site('    location / {\n        proxy_pass http://app;\n    }\n');
    const { text: fixed, tree } = await fixedWith(http11Edits, text);
    expect(fixed).toBe(site('    location / {\n        proxy_http_version 1.1;\n        proxy_pass http://app;\n    }\n'));
    nginxAccepts(tree, ['site.conf']);
  });

  it('changes an explicit 1.0 in the pass\'s own location where it is, keeping its quotes', async () => {
    const text = site('    location / {\n        proxy_http_version "1.0";\n        proxy_pass http://app;\n    }\n');
    const { text: fixed } = await fixedWith(http11Edits, text);
    expect(fixed).toBe(site('    location / {\n        proxy_http_version "1.1";\n        proxy_pass http://app;\n    }\n'));
  });

  it('overrides a server-level 1.0 in the location only, leaving the other locations as they are', async () => {
    const text = site(
      '    location / {\n        proxy_pass http://app;\n    }\n    location /legacy {\n        proxy_pass http://127.0.0.1:9000;\n    }\n',
      '    proxy_http_version 1.0;\n',
    );
    const { text: fixed, tree } = await fixedWith(http11Edits, text);
    expect(fixed).toBe(
      site(
        '    location / {\n        proxy_http_version 1.1;\n        proxy_pass http://app;\n    }\n    location /legacy {\n        proxy_pass http://127.0.0.1:9000;\n    }\n',
        '    proxy_http_version 1.0;\n',
      ),
    );
    nginxAccepts(tree, ['site.conf']);
  });

  it('puts the line into the location around an `if` (proxy_http_version is not allowed in `if`)', async () => {
    const text = site('    location / {\n        if ($arg_x) {\n            proxy_pass http://app;\n        }\n    }\n');
    const { text: fixed, tree } = await fixedWith(http11Edits, text);
    expect(fixed).toBe(
      site('    location / {\n        proxy_http_version 1.1;\n        if ($arg_x) {\n            proxy_pass http://app;\n        }\n    }\n'),
    );
    nginxAccepts(tree, ['site.conf']);
  });

  it('leaves 1.1 alone, and an absent version alone when targeting 1.29.7+, but still fixes an explicit 1.0 there', async () => {
    const ok = site('    location / {\n        proxy_http_version 1.1;\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(http11Edits, ok)).edits).toEqual([]);
    const absent = site('    location / {\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(http11Edits, absent, modern)).edits).toEqual([]);
    const explicit = site('    location / {\n        proxy_http_version 1.0;\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(http11Edits, explicit, modern)).text).toBe(ok);
  });

  it('has nothing to do for grpc_pass or a templated version', async () => {
    const tree = await loadTree({ 'site.conf': site('    location / {\n        grpc_pass grpc://app;\n    }\n') });
    const [grpc] = passes(tree.workspace);
    expect(grpc!.name).toBe('grpc_pass');
    expect(http11Edits(tree.workspace, grpc!, legacy)).toEqual([]);
    const templated = site('    location / {\n        proxy_http_version {{ $.V }};\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(http11Edits, templated)).edits).toEqual([]);
  });
});

describe('clearConnectionEdits', () => {
  it('adds Connection "" to the location when no level sets any header', async () => {
    const text = site('    location / {\n        proxy_pass http://app;\n    }\n');
    const { text: fixed } = await fixedWith(clearConnectionEdits, text);
    expect(fixed).toBe(site('    location / {\n        proxy_set_header Connection "";\n        proxy_pass http://app;\n    }\n'));
  });

  it('adds it after the last header of the level defining the set (the server), not in the location', async () => {
    const head = '    proxy_set_header Host $host;\n    proxy_set_header X-Real-IP $remote_addr;\n';
    const text = site('    location / {\n        proxy_pass http://app;\n    }\n', head);
    const { text: fixed, tree } = await fixedWith(clearConnectionEdits, text);
    expect(fixed).toBe(site('    location / {\n        proxy_pass http://app;\n    }\n', `${head}    proxy_set_header Connection "";\n`));
    nginxAccepts(tree, ['site.conf']);
  });

  it('writes the empty value in the quotes the file uses', async () => {
    const text = site("    location / {\n        proxy_set_header X-Id '1';\n        proxy_pass http://app;\n    }\n");
    const { text: fixed } = await fixedWith(clearConnectionEdits, text);
    expect(fixed).toContain("proxy_set_header X-Id '1';\n        proxy_set_header Connection '';\n");
  });

  it('replaces a literal close, in any version', async () => {
    const text = site('    location / {\n        proxy_set_header Connection "Close";\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(clearConnectionEdits, text)).text).toContain('proxy_set_header Connection "";');
    expect((await fixedWith(clearConnectionEdits, text, modern)).text).toContain('proxy_set_header Connection "";');
  });

  it('leaves $http_connection, a map variable, an empty value and (1.29.7+) an unset header alone', async () => {
    for (const value of ['$http_connection', '$connection_upgrade', '""', 'upgrade']) {
      const text = site(`    location / {\n        proxy_set_header Connection ${value};\n        proxy_pass http://app;\n    }\n`);
      expect((await fixedWith(clearConnectionEdits, text)).edits, value).toEqual([]);
    }
    const unset = site('    location / {\n        proxy_pass http://app;\n    }\n');
    expect((await fixedWith(clearConnectionEdits, unset, modern)).edits).toEqual([]);
  });

  it('uses the upgrade map when the set forwards Upgrade, so WebSocket keeps working', async () => {
    const text = site(
      '    location / {\n        proxy_set_header Upgrade $http_upgrade;\n        proxy_pass http://app;\n    }\n',
    );
    const { text: fixed, tree } = await fixedWith(clearConnectionEdits, text);
    expect(fixed).toContain('proxy_set_header Upgrade $http_upgrade;\n        proxy_set_header Connection $connection_upgrade;\n');
    expect(fixed).toMatch(/map \$http_upgrade \$connection_upgrade \{\n\s+default upgrade;\n\s+'' '';\n\}/);
    nginxAccepts(tree, ['site.conf']);
  });

  it('adds the header after the include of a shared snippet, not inside the snippet', async () => {
    const params = 'proxy_set_header Host $host;\nproxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n';
    const text = site('    location / {\n        include proxy_params;\n        proxy_pass http://app;\n    }\n');
    const { text: fixed, tree } = await fixedWith(clearConnectionEdits, text, legacy, 0, { proxy_params: params });
    expect(readTree(tree, 'proxy_params')).toBe(params);
    expect(fixed).toBe(
      site('    location / {\n        include proxy_params;\n        proxy_set_header Connection "";\n        proxy_pass http://app;\n    }\n'),
    );
  });

  it('keeps CRLF line endings and tab indentation', async () => {
    const text = `${UPSTREAM}server {\n\tlocation / {\n\t\tproxy_pass http://app;\n\t}\n}\n`.replace(/\n/g, '\r\n');
    const { text: fixed } = await fixedWith(clearConnectionEdits, text);
    expect(fixed).toBe(
      `${UPSTREAM}server {\n\tlocation / {\n\t\tproxy_set_header Connection "";\n\t\tproxy_pass http://app;\n\t}\n}\n`.replace(/\n/g, '\r\n'),
    );
  });
});

describe('proxyReuseEdits', () => {
  it('merges both insertions before the proxy_pass into one edit, and a second run has nothing to do', async () => {
    const text = site('    location / {\n        proxy_pass http://app;\n    }\n');
    const { edits, tree, text: fixed } = await fixedWith(proxyReuseEdits, text);
    expect(edits).toHaveLength(1);
    expect(fixed).toBe(
      site(
        '    location / {\n        proxy_http_version 1.1;\n        proxy_set_header Connection "";\n        proxy_pass http://app;\n    }\n',
      ),
    );
    const again = proxyPasses(tree.workspace).flatMap((pass) => proxyReuseEdits(tree.workspace, pass, legacy));
    expect(again).toEqual([]);
    nginxAccepts(tree, ['site.conf']);
  });

  it('merges the edits of passes sharing a location or an inherited set (no duplicate directive)', async () => {
    const text = site(
      '    location / {\n        if ($arg_a) {\n            proxy_pass http://app;\n        }\n        proxy_pass http://app;\n    }\n    location /b {\n        proxy_pass http://app;\n    }\n',
      '    proxy_set_header Host $host;\n',
    );
    const tree = await loadTree({ 'site.conf': text });
    const edits = proxyReuseEditsForPasses(tree.workspace, proxyPasses(tree.workspace), legacy);
    const after = await applyToTree(tree, edits);
    expect(readTree(after, 'site.conf')).toBe(
      site(
        '    location / {\n        proxy_http_version 1.1;\n        if ($arg_a) {\n            proxy_pass http://app;\n        }\n        proxy_pass http://app;\n    }\n    location /b {\n        proxy_http_version 1.1;\n        proxy_pass http://app;\n    }\n',
        '    proxy_set_header Host $host;\n    proxy_set_header Connection "";\n',
      ),
    );
    nginxAccepts(after, ['site.conf']);
  });
});

describe('template branches', () => {
  it('puts the line into each {{ if }} / {{ else }} branch that holds a pass, once per branch', async () => {
    const location = (inner: (upstream: string) => string) =>
      `server {\n  location / {\n{{ if $.A }}\n${inner('a')}{{ else }}\n${inner('b')}{{ end }}\n  }\n}\n`;
    const before = location((u) => `    proxy_pass http://${u};\n`);
    const up = 'upstream a {\n  server 127.0.0.1:1;\n  keepalive 2;\n}\nupstream b {\n  server 127.0.0.1:2;\n  keepalive 2;\n}\n';
    const tree = await loadTree({ 'app.sigil': up + before });
    const edits = proxyReuseEditsForPasses(tree.workspace, proxyPasses(tree.workspace), legacy);
    const after = await applyToTree(tree, edits);
    expect(readTree(after, 'app.sigil')).toBe(
      up + location((u) => `    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n    proxy_pass http://${u};\n`),
    );
    expect(proxyReuseEditsForPasses(after.workspace, proxyPasses(after.workspace), legacy)).toEqual([]);
  });
});

describe('mergeEdits', () => {
  const edit = (startOffset: number, endOffset: number, newText: string) => ({ file: 'f', startOffset, endOffset, newText });
  it('drops duplicates, joins insertions at one offset, rejects overlaps', () => {
    expect(mergeEdits([edit(1, 1, 'a'), edit(1, 1, 'a'), edit(1, 1, 'b'), edit(4, 6, 'x')])).toEqual([
      edit(1, 1, 'ab'),
      edit(4, 6, 'x'),
    ]);
    expect(() => mergeEdits([edit(1, 5, 'a'), edit(3, 7, 'b')])).toThrow(/overlaps/);
  });
});

/** Every http-level scope's effective headers as `name: value` lines (Connection left out), in a stable order. */
function headerSets(workspace: Workspace): string[][] {
  const levels = allScopes(workspace).filter((scope: Scope) => ['http', 'server', 'location', 'if'].includes(scope.context));
  return levels.map((scope) =>
    [...effectiveProxyHeaders(scope)]
      .filter(([key]) => key !== 'connection')
      .map(([key, header]) => `${key}: ${header.directives.map((d) => d.args[1]?.raw ?? '').join(' | ')}`),
  );
}

const PARAMS = 'proxy_set_header Host $host;\nproxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n';

const MIXED = {
  'nginx.conf': `events {}
http {
    proxy_set_header X-Http-Level 1;
    upstream app {
        server 127.0.0.1:5000;
        keepalive 16;
    }
    upstream ws {
        server 127.0.0.1:5001;
        keepalive 8;
    }
    upstream plain {
        server 127.0.0.1:5002;
    }
    server {
        listen 127.0.0.1:8080;
        proxy_set_header Host $host;
        proxy_set_header X-Real-IP $remote_addr;
        location / {
            proxy_pass http://app;
        }
        location /inherits-too {
            proxy_pass http://plain;
        }
        location /own {
            proxy_set_header X-Own yes;
            proxy_pass http://app;
            location /own/nested {
                proxy_pass http://app;
            }
        }
        location /ws {
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Host $host;
            proxy_pass http://ws;
        }
        location /closing {
            proxy_set_header Connection close;
            proxy_set_header X-A a;
            proxy_pass http://app;
        }
        location /snippet {
            include proxy_params;
            proxy_pass http://app;
        }
        location /if {
            proxy_set_header X-If-Home 1;
            if ($arg_x) {
                proxy_pass http://app;
            }
        }
        location /passthrough {
            proxy_set_header Connection $http_connection;
            proxy_pass http://app;
        }
    }
    server {
        listen 127.0.0.1:8081;
        location / {
            proxy_pass http://app;
        }
    }
}
`,
  proxy_params: PARAMS,
};

describe('the connection-header-missing fix changes no header but Connection', () => {
  it('A test compares every location\'s effective header set before and after', async () => {
    const tree = await loadTree(MIXED);
    const before = headerSets(tree.workspace);
    const keepalive = (pass: { resolution: { kind: string }; target?: { host?: string } }) =>
      pass.resolution.kind === 'upstream' && pass.target?.host !== 'plain';
    const after = await fixToFixpoint(tree, (ws, pass) => clearConnectionEdits(ws, pass, legacy), keepalive);
    expect(headerSets(after.workspace)).toEqual(before);
    // ...and Connection is now cleared (or the upgrade map) for every keepalive pass but the passthrough one.
    const connections = proxyPasses(after.workspace)
      .filter(keepalive)
      .map((pass) => effectiveProxyHeaders(pass.scope).get('connection')?.value?.raw);
    expect(connections).toEqual(['""', '""', '""', '$connection_upgrade', '""', '""', '""', '$http_connection', '""']);
    expect(readTree(after, 'proxy_params')).toBe(PARAMS);
    nginxAcceptsMain(after);
  });

  it('holds for fix-all running the rule itself', async () => {
    const tree = await loadTree(MIXED);
    const before = headerSets(tree.workspace);
    const main = path.join(tree.root, 'nginx.conf');
    const result = await fixAll([{ path: main, text: readTree(tree, 'nginx.conf') }], { readRoots: [tree.root] }, [
      connectionHeaderMissingRule,
    ]);
    expect(result.remaining).toEqual([]);
    expect([...result.texts.keys()]).toEqual([main]);
    for (const [file, text] of result.texts) writeFileSync(file, text);
    const after = await applyToTree(tree, []);
    expect(headerSets(after.workspace)).toEqual(before);
  });
});

function nginxAcceptsMain(tree: Tree): void {
  const outcome = nginxTest((prefix) => {
    writeFileSync(path.join(prefix.dir, 'proxy_params'), readTree(tree, 'proxy_params'));
    const main = readTree(tree, 'nginx.conf')
      .replace('include proxy_params;', `include ${path.join(prefix.dir, 'proxy_params')};`)
      .replace('http {', `http {\n${prefix.httpTempPaths}`);
    return main;
  });
  expect(outcome.ok, outcome.output).toBe(true);
}
