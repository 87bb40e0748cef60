import { describe, expect, it } from 'vitest';
import { allScopes } from '../../server/src/analysis/scopes.js';
import { effectiveProxyHeaders } from '../../server/src/analysis/inheritance.js';
import { copyDownEdits, droppedHeaders } from '../../server/src/fixes/header-copy.js';
import { applyToTree, loadTree, readTree, type Tree } from './support.js';

function locations(tree: Tree) {
  return allScopes(tree.workspace).filter((scope) => scope.context === 'location');
}

/** Header name -> raw values, for every location: what the upstream receives. */
function sent(tree: Tree): string[][] {
  return locations(tree).map((scope) =>
    [...effectiveProxyHeaders(scope)].map(([key, h]) => `${key}=${h.directives.map((d) => d.args[1]?.raw).join('|')}`).sort(),
  );
}

describe('droppedHeaders / copyDownEdits', () => {
  it('copies the dropped headers, in inherited order and as written, so every location sends what nginx would merge', async () => {
    const site = `server {
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For "$proxy_add_x_forwarded_for";
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header Connection '';

    location /api/ {
        proxy_set_header host $http_host;
        proxy_set_header X-Api 1;
        proxy_pass http://127.0.0.1:1;
    }
}
`;
    const tree = await loadTree({ 'site.conf': site });
    const drop = droppedHeaders(tree.workspace, locations(tree)[0]!)!;
    expect(drop.dropped.map((h) => h.name)).toEqual(['X-Forwarded-For', 'Connection']);
    expect(drop.anchor.args[0]!.value).toBe('host');
    const after = await applyToTree(tree, copyDownEdits(drop));
    expect(readTree(after, 'site.conf')).toContain(
      `    location /api/ {
        proxy_set_header X-Forwarded-For "$proxy_add_x_forwarded_for";
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header Connection '';
        proxy_set_header host $http_host;`,
    );
    expect(sent(after)).toEqual([
      ['connection=\'\'', 'host=$http_host', 'x-api=1', 'x-forwarded-for="$proxy_add_x_forwarded_for"|$remote_addr'],
    ]);
    expect(droppedHeaders(after.workspace, locations(after)[0]!)).toBeUndefined();
  });

  it('finds nothing when the block repeats every header or defines none', async () => {
    const tree = await loadTree({
      'site.conf': 'server {\n  proxy_set_header A 1;\n  location /a { proxy_set_header a 2; proxy_pass http://x; }\n  location /b { proxy_pass http://x; }\n}\n',
    });
    expect(locations(tree).map((scope) => droppedHeaders(tree.workspace, scope))).toEqual([undefined, undefined]);
  });

  it('offers no copy of a header under a template guard', async () => {
    const tree = await loadTree({
      'app.sigil': 'server {\n  {{ if $.X }}proxy_set_header X 1;{{ end }}\n  proxy_set_header Y 2;\n  location / {\n    proxy_set_header Z 3;\n    proxy_pass http://x;\n  }\n}\n',
    });
    const drop = droppedHeaders(tree.workspace, locations(tree)[0]!)!;
    expect(drop.dropped.map((h) => h.name)).toEqual(['X', 'Y']);
    expect(copyDownEdits(drop)).toEqual([]);
  });
});
