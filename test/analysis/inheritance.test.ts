import { describe, expect, it } from 'vitest';
import {
  effectiveArray,
  effectiveDirective,
  effectiveHeaders,
  effectiveProxyHeaders,
  inheritanceChain,
} from '../../server/src/analysis/inheritance.js';
import { scopeOf, scopesOpenedBy, type Scope } from '../../server/src/analysis/scopes.js';
import type { Workspace } from '../../server/src/model/workspace.js';
import { checkTree, directiveIn, source } from './support.js';

const MAIN = 'events {}\n';

/** The scope a proxy_pass (the nth in `file`) sits in: where a keepalive rule would start looking. */
function passScope(workspace: Workspace, nth = 0, file = 'nginx.conf'): Scope {
  const [scope] = scopeOf(workspace, directiveIn(workspace, file, 'proxy_pass', nth));
  return scope!;
}

describe('effectiveDirective', () => {
  it('walks location, enclosing locations, server, then http', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}proxy_http_version 1.0;\nhttp {\n  proxy_http_version 1.1;\n  server {\n    location /a {\n      location /a/b { proxy_pass http://u; }\n    }\n  }\n  server {\n    proxy_http_version 1.0;\n    location / { proxy_pass http://u; }\n  }\n}\n`,
    });
    const inner = passScope(workspace, 0);
    expect(inheritanceChain(inner).map((s) => s.context)).toEqual(['location', 'location', 'server', 'http']);
    const fromHttp = effectiveDirective(inner, 'proxy_http_version')!;
    expect(fromHttp.level.context).toBe('http');
    expect(fromHttp.directives.map(source)).toEqual(['proxy_http_version 1.1;']);
    expect(fromHttp.conditional).toBe(false);
    expect(effectiveDirective(passScope(workspace, 1), 'proxy_http_version')!.level.context).toBe('server');
  });

  it('lets an if block inherit from its location, and never looks above http', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}proxy_buffering off;\nhttp {\n  server {\n    location / {\n      proxy_http_version 1.1;\n      if ($slow) { proxy_pass http://u; }\n    }\n  }\n}\n`,
    });
    const ifScope = passScope(workspace);
    expect(ifScope.context).toBe('if');
    expect(effectiveDirective(ifScope, 'proxy_http_version')!.level).toBe(ifScope.parent);
    expect(effectiveDirective(ifScope, 'proxy_buffering')).toBeUndefined();
  });

  it('has nothing to say outside the http levels', async () => {
    const { workspace } = await checkTree({ 'nginx.conf': `${MAIN}http { upstream u { keepalive 8; server a; } }\n` });
    const [body] = scopesOpenedBy(workspace, directiveIn(workspace, 'nginx.conf', 'upstream'));
    expect(inheritanceChain(body!)).toEqual([]);
    expect(effectiveDirective(body!, 'keepalive')).toBeUndefined();
  });

  it('marks a definition every copy of which is template-guarded as conditional', async () => {
    const { workspace } = await checkTree({
      'app.conf.sigil':
        'server {\n  location / {\n{{ if $.H2 }}    proxy_http_version 1.1;{{ end }}\n    proxy_pass http://app;\n  }\n}\n',
    });
    const definition = effectiveDirective(passScope(workspace, 0, '.sigil'), 'proxy_http_version')!;
    expect(definition.level.context).toBe('location');
    expect(definition.conditional).toBe(true);
  });
});

describe('effectiveArray and headers', () => {
  const config = [
    MAIN,
    'http {',
    '  proxy_set_header X-Http 1;',
    '  server {',
    '    proxy_set_header Connection "";',
    '    proxy_set_header Upgrade $http_upgrade;',
    '    location /inherits { proxy_pass http://u; }',
    '    location /loses {',
    '      proxy_set_header Host $host;',
    '      proxy_pass http://u;',
    '    }',
    '    location /snippet {',
    '      include proxy_headers.conf;',
    '      proxy_pass http://u;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  const files = {
    'nginx.conf': config,
    'proxy_headers.conf': 'proxy_set_header connection close;\nproxy_set_header Connection "";\n',
  };

  it('takes the whole set from the nearest level that defines one', async () => {
    const { workspace } = await checkTree(files);
    const inherits = effectiveArray(passScope(workspace, 0), 'proxy_set_header')!;
    expect(inherits.level.context).toBe('server');
    expect(inherits.directives.map(source)).toEqual(['proxy_set_header Connection "";', 'proxy_set_header Upgrade $http_upgrade;']);
  });

  it('loses every header of the levels above once a location defines one', async () => {
    const { workspace } = await checkTree(files);
    const headers = effectiveProxyHeaders(passScope(workspace, 1));
    expect([...headers.keys()]).toEqual(['host']);
    expect(headers.get('host')!.level.context).toBe('location');
    expect(headers.get('host')!.value!.raw).toBe('$host');
  });

  it('reads headers from included snippets, case-insensitively, keeping every definition', async () => {
    const { workspace } = await checkTree(files);
    const headers = effectiveProxyHeaders(passScope(workspace, 2));
    expect([...headers.keys()]).toEqual(['connection']);
    const connection = headers.get('connection')!;
    expect(connection.name).toBe('Connection');
    expect(connection.value).toMatchObject({ raw: '""', value: '' });
    expect(connection.directives.map(source)).toEqual(['proxy_set_header connection close;', 'proxy_set_header Connection "";']);
    expect(connection.directive.file.path.endsWith('proxy_headers.conf')).toBe(true);
  });

  it('gives an empty map when no level sets headers, and reads other header arrays alike', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': `${MAIN}http { grpc_set_header TE trailers; server { location / { proxy_pass http://u; grpc_pass g; } } }\n`,
    });
    const scope = passScope(workspace);
    expect(effectiveProxyHeaders(scope).size).toBe(0);
    expect([...effectiveHeaders(scope, 'grpc_set_header').keys()]).toEqual(['te']);
  });
});
