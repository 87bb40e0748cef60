import { describe, expect, it } from 'vitest';
import { guardsWithin } from '../../server/src/analysis/scopes.js';
import { findUpstreams, upstreamKey, upstreams } from '../../server/src/analysis/upstreams.js';
import { checkTree, source } from './support.js';

const MAIN = 'events {}\n';

describe('upstreams', () => {
  it('indexes http upstreams with their servers, keepalive and balancers, and never stream ones', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': [
        MAIN,
        'stream { upstream db { server 10.0.0.9:5432; } }',
        'http {',
        '  upstream "Backend" {',
        '    keepalive 16;',
        '    least_conn;',
        '    server 10.0.0.1:8080 weight=2;',
        '    include members.conf;',
        '  }',
        '  upstream static { server 10.0.0.3; }',
        '}',
        '',
      ].join('\n'),
      'members.conf': 'server 10.0.0.2:8080;\nhash $remote_addr consistent;\n',
    });
    const all = upstreams(workspace);
    expect(all.map((u) => u.name)).toEqual(['Backend', 'static']);
    const [backend] = all;
    expect(backend!.key).toBe('backend');
    expect(backend!.templated).toBe(false);
    expect(backend!.servers.map(source)).toEqual(['server 10.0.0.1:8080 weight=2;', 'server 10.0.0.2:8080;']);
    expect(backend!.keepalive.map(source)).toEqual(['keepalive 16;']);
    expect(backend!.balancers.map((d) => d.name)).toEqual(['least_conn', 'hash']);
    const statements = backend!.bodies[0]!.statements;
    expect(statements.indexOf(backend!.balancers[0]!)).toBeGreaterThan(statements.indexOf(backend!.keepalive[0]!));
    expect(findUpstreams(workspace, 'BACKEND')).toEqual([backend]);
    expect(findUpstreams(workspace, 'db')).toEqual([]);
  });

  it('normalises templated names so differently spaced spellings match', async () => {
    const sigil = [
      '{{ range $upstream_port := $.PROXY_UPSTREAM_PORTS | split " " }}',
      'upstream {{ $.APP }}-{{ $upstream_port }} {',
      '  server {{ $listener }};',
      '{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}',
      '}',
      '{{ end }}',
      '',
    ].join('\n');
    const { workspace } = await checkTree({ 'nginx.conf.sigil': sigil });
    const [app] = upstreams(workspace);
    expect(app!.name).toBe('{{ $.APP }}-{{ $upstream_port }}');
    expect(app!.templated).toBe(true);
    expect(findUpstreams(workspace, '{{$.APP}}-{{  $upstream_port }}')).toEqual([app]);
    expect(findUpstreams(workspace, '{{ $.app }}-{{ $upstream_port }}')).toEqual([]);
    const [keepalive] = app!.keepalive;
    expect(guardsWithin(keepalive!, app!.bodies[0]!).map((g) => g.control.pipeline)).toEqual(['$.PROXY_KEEPALIVE']);
  });

  it('lists an upstream included twice once, with a body per place', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}http { include up.conf; include up.conf; }\n`,
      'up.conf': 'upstream twice { server a; }\n',
    });
    expect(upstreams(workspace)).toHaveLength(1);
    expect(upstreams(workspace)[0]!.bodies).toHaveLength(2);
  });
});

describe('upstreamKey', () => {
  it('folds case outside template actions only, and drops trim markers', () => {
    expect(upstreamKey('MyApp')).toBe('myapp');
    expect(upstreamKey('{{-  $.APP  -}}-Web')).toBe('{{ $.APP }}-web');
    expect(upstreamKey('{{ index $.X "a  b" }}')).toBe('{{ index $.X "a  b" }}');
  });
});
