import { describe, expect, it } from 'vitest';
import {
  allScopes,
  guardsWithin,
  scopeOf,
  scopeTree,
  scopesOpenedBy,
  scopeView,
  unfollowedIncludes,
  type Scope,
} from '../../server/src/analysis/scopes.js';
import { checkTree, directiveIn, source } from './support.js';
import { passes } from '../../server/src/analysis/passes.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';

const MAIN = 'events {}\n';

function names(scope: Scope): string[] {
  return scope.statements.map((d) => d.name);
}

describe('scopeTree', () => {
  it('mirrors the block structure with contexts and parents', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}http {\n  server {\n    location / {\n      if ($x) { return 403; }\n      proxy_pass http://u;\n    }\n  }\n}\n`,
    });
    const [top] = scopeTree(workspace);
    expect(top!.block).toBeUndefined();
    expect(top!.context).toBe('main');
    expect(names(top!)).toEqual(['events', 'http']);
    const http = top!.children[1]!;
    const server = http.children[0]!;
    const location = server.children[0]!;
    const ifScope = location.children[0]!;
    expect([http.context, server.context, location.context, ifScope.context]).toEqual(['http', 'server', 'location', 'if']);
    expect(names(location)).toEqual(['if', 'proxy_pass']);
    expect(ifScope.parent).toBe(location);
    expect(location.parent).toBe(server);
    expect(ifScope.root).toBe(workspace.roots[0]);
    expect(allScopes(workspace).map((s) => s.context)).toEqual(['main', 'events', 'http', 'server', 'location', 'if']);
  });

  it('puts included directives in place of the include, keeping includes that pulled in nothing', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}http {\n  gzip on;\n  include conf.d/*.conf;\n  include missing.conf;\n  include none/*.conf;\n  sendfile on;\n}\n`,
      'conf.d/a.conf': 'upstream app { server 127.0.0.1:5000; }\nserver { listen 80; }\n',
      'conf.d/b.conf': 'map $a $b { default 1; }\n',
    });
    const http = scopeTree(workspace)[0]!.children[1]!;
    expect(names(http)).toEqual(['gzip', 'upstream', 'server', 'map', 'include', 'include', 'sendfile']);
    expect(unfollowedIncludes(http).map(source)).toEqual(['include missing.conf;', 'include none/*.conf;']);
    expect(http.children.map((s) => s.context)).toEqual(['upstream', 'server', 'map']);
    expect(http.children.every((s) => s.parent === http)).toBe(true);
  });

  it('gives a directive of a file included in two places a scope in each', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}http {\n  server { listen 80; include common.conf; }\n  server { listen 81; include common.conf; }\n}\n`,
      'common.conf': 'location / { proxy_set_header Host $host; }\n',
    });
    const header = directiveIn(workspace, 'common.conf', 'proxy_set_header');
    const scopes = scopeOf(workspace, header);
    expect(scopes).toHaveLength(2);
    expect(scopes.map((s) => s.context)).toEqual(['location', 'location']);
    const ports = scopes.map((s) => source(s.parent!.statements.find((d) => d.name === 'listen')!));
    expect(ports).toEqual(['listen 80;', 'listen 81;']);
    const location = directiveIn(workspace, 'common.conf', 'location');
    expect(scopesOpenedBy(workspace, location)).toEqual(scopes);
    expect(scopeOf(workspace, location).map((s) => s.context)).toEqual(['server', 'server']);
  });

  it('builds once per workspace and has a top scope for every root, even an empty one', async () => {
    const { workspace } = await checkTree(
      { 'sites/a.conf': 'server { listen 80; }\n', 'sites/empty.conf': '# nothing\n' },
      ['sites/a.conf', 'sites/empty.conf'],
    );
    expect(scopeTree(workspace)).toBe(scopeTree(workspace));
    expect(scopeTree(workspace).map((s) => [s.context, s.statements.length])).toEqual([
      ['http', 1],
      ['http', 0],
    ]);
    expect(scopeOf(workspace, workspace.files[0]!.directives[0]!.children[0]!).map((s) => s.context)).toEqual(['server']);
  });
});

describe('guardsWithin', () => {
  it('names only the template guards inside the block, not those around it', async () => {
    const sigil = [
      '{{ range $upstream_port := $.PROXY_UPSTREAM_PORTS | split " " }}',
      'upstream {{ $.APP }}-{{ $upstream_port }} {',
      '{{ range $listeners := $.DOKKU_APP_WEB_LISTENERS | split " " }}',
      '  server {{ $listener }};{{ end }}',
      '{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}',
      '  keepalive_timeout 60s;',
      '}',
      '{{ end }}',
      '',
    ].join('\n');
    const { workspace } = await checkTree({ 'nginx.conf.sigil': sigil });
    const upstream = directiveIn(workspace, '.sigil', 'upstream');
    const [body] = scopesOpenedBy(workspace, upstream);
    const guardOf = (name: string) =>
      guardsWithin(body!.statements.find((d) => d.name === name)!, body!).map((g) => `${g.control.keyword} ${g.control.pipeline}`);
    expect(upstream.guards).toHaveLength(1);
    expect(guardOf('keepalive')).toEqual(['if $.PROXY_KEEPALIVE']);
    expect(guardOf('server')).toEqual(['range $listeners := $.DOKKU_APP_WEB_LISTENERS | split " "']);
    expect(guardOf('keepalive_timeout')).toEqual([]);
    const top = scopeTree(workspace)[0]!;
    expect(guardsWithin(upstream, top)).toHaveLength(1);
  });
});

describe('scopeView', () => {
  it('leaves the blocks it is told out of every index, and the workspace itself as it was', async () => {
    const { workspace } = await checkTree({
      'nginx.conf':
        `${MAIN}http {\n  upstream a { server 127.0.0.1:1; }\n  upstream b { server 127.0.0.1:2; }\n` +
        '  server { location / { proxy_pass http://a; } }\n  server { location / { proxy_pass http://b; } }\n}\n',
    });
    const second = directiveIn(workspace, 'nginx.conf', 'server', 3);
    const upstreamB = directiveIn(workspace, 'nginx.conf', 'upstream', 1);
    expect(second.name).toBe('server');
    const view = scopeView(workspace, (directive) => directive === second || directive === upstreamB);
    expect(view).not.toBe(workspace);
    expect(view.files).toBe(workspace.files);
    expect(passes(view).map((pass) => pass.directive.args[0]!.raw)).toEqual(['http://a']);
    expect(upstreams(view).map((upstream) => upstream.name)).toEqual(['a']);
    expect(scopeOf(view, second.children[0]!)).toEqual([]);
    expect(scopesOpenedBy(view, second)).toEqual([]);
    // The workspace's own indexes still hold everything.
    expect(passes(workspace)).toHaveLength(2);
    expect(upstreams(workspace).map((upstream) => upstream.name)).toEqual(['a', 'b']);
  });
});
