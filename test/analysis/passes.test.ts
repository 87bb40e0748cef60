import { describe, expect, it } from 'vitest';
import { parsePassTarget, passes, usersOf, type Pass } from '../../server/src/analysis/passes.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';
import type { Workspace } from '../../server/src/model/workspace.js';
import { checkTree, source } from './support.js';

const MAIN = 'events {}\n';

describe('parsePassTarget', () => {
  it.each([
    ['http://backend', { scheme: 'http', host: 'backend', port: undefined, uri: undefined, socket: undefined }],
    ['HTTPS://api.example.com:8443/v1/', { scheme: 'https', host: 'api.example.com', port: '8443', uri: '/v1/' }],
    ['http://[::1]:8080/x', { scheme: 'http', host: '[::1]', port: '8080', uri: '/x' }],
    ['http://unix:/run/app.sock:/api', { scheme: 'http', host: undefined, socket: '/run/app.sock', uri: '/api' }],
    ['unix:/run/php/php8.2-fpm.sock', { scheme: undefined, host: undefined, socket: '/run/php/php8.2-fpm.sock' }],
    ['127.0.0.1:9000', { scheme: undefined, host: '127.0.0.1', port: '9000' }],
    ['grpcs://grpc-backend', { scheme: 'grpcs', host: 'grpc-backend', port: undefined }],
    ['php_pool', { scheme: undefined, host: 'php_pool', port: undefined }],
  ])('reads %s', (text, expected) => {
    expect(parsePassTarget(text)).toMatchObject({ ...expected, hasVariables: false, templated: false });
  });

  it.each(['$scheme://$host', 'http://$backend', 'http://app_$env', 'http://app$1', 'http://unix:$sock:/', 'http://b:$port'])(
    'never guesses a target with variables: %s',
    (text) => {
      expect(parsePassTarget(text).hasVariables).toBe(true);
    },
  );

  it.each([
    ['http://storage:10000$request_uri', { host: 'storage', port: '10000', uri: '$request_uri' }],
    ['http://backend$request_uri', { host: 'backend', port: undefined, uri: '$request_uri' }],
    ['http://backend${uri}$is_args$args', { host: 'backend', port: undefined, uri: '${uri}$is_args$args' }],
    ['https://fonts.gstatic.com/s/$font_file', { host: 'fonts.gstatic.com', port: undefined, uri: '/s/$font_file' }],
    ['http://127.0.0.1:8080$1', { host: '127.0.0.1', port: '8080', uri: '$1' }],
    ['http://unix:/run/app.sock:$request_uri', { host: undefined, socket: '/run/app.sock', uri: '$request_uri' }],
  ])('starts the uri at a variable right after a literal host[:port]: %s', (text, expected) => {
    expect(parsePassTarget(text)).toMatchObject({ ...expected, hasVariables: false, uriVariables: true, templated: false });
  });

  it('keeps variables in the uri apart from the host', () => {
    expect(parsePassTarget('http://backend/$1$is_args$args')).toMatchObject({ host: 'backend', uri: '/$1$is_args$args', hasVariables: false });
  });

  it('reads templated hosts and ports, whose `$` is Go, not nginx', () => {
    expect(parsePassTarget('http://{{  $.APP }}-{{ $upstream_port }}')).toMatchObject({
      host: '{{ $.APP }}-{{ $upstream_port }}',
      port: undefined,
      hasVariables: false,
      templated: true,
    });
    expect(parsePassTarget('http://{{ $ip }}:{{ $port }}/{{ $path }}')).toMatchObject({
      host: '{{ $ip }}',
      port: '{{ $port }}',
      uri: '/{{ $path }}',
      templated: true,
    });
  });

  it.each([
    ['${UPSTREAM_SCHEME}backend', { scheme: undefined, host: 'backend', port: undefined, uri: undefined, templated: false }],
    ['${S3_SERVER_PROTO}://storage_urls/s3', { scheme: undefined, host: 'storage_urls', uri: '/s3', templated: false }],
    ['${SCHEME}127.0.0.1:8080/api/', { scheme: undefined, host: '127.0.0.1', port: '8080', uri: '/api/', templated: false }],
    ['http://${BACKEND_HOST}:8080', { scheme: 'http', host: '${BACKEND_HOST}', port: '8080', templated: true, envsubst: true }],
    ['http://${BACKEND}', { scheme: 'http', host: '${BACKEND}', port: undefined, templated: true, envsubst: true }],
    ['http://app:${APP_PORT}/', { host: 'app', port: '${APP_PORT}', uri: '/', templated: true, envsubst: true }],
    ['${PROXY_PASS}', { scheme: undefined, host: '${PROXY_PASS}', templated: true, envsubst: true }],
    ['${PHP_HOST}:9000', { scheme: undefined, host: '${PHP_HOST}', port: '9000', templated: true, envsubst: true }],
    ['http://unix:${SOCKET_DIR}/app.sock:/', { socket: '${SOCKET_DIR}/app.sock', uri: '/', templated: true, envsubst: true }],
  ])('reads an envsubst placeholder as template text, not an nginx variable: %s', (text, expected) => {
    expect(parsePassTarget(text)).toMatchObject({ ...expected, hasVariables: false });
  });

  it('keeps lower-case ${name} an nginx variable, and a Go action in the host not envsubst', () => {
    expect(parsePassTarget('http://${backend}')).toMatchObject({ hasVariables: true, templated: false });
    expect(parsePassTarget('${UPSTREAM_SCHEME}backend$request_uri')).toMatchObject({ host: 'backend', uriVariables: true });
    expect(parsePassTarget('http://{{ $.APP }}-${PORT}')).toMatchObject({ templated: true, envsubst: false });
  });
});

function summary(pass: Pass): [string, string] {
  const resolution = pass.resolution;
  const detail =
    resolution.kind === 'upstream'
      ? `upstream ${resolution.upstreams.map((u) => u.name).join(',')}`
      : resolution.kind === 'unresolved'
        ? `unresolved ${resolution.reason}`
        : 'implicit';
  return [source(pass.directive), detail];
}

async function locations(body: string, extra: Record<string, string> = {}): Promise<Workspace> {
  const config = `${MAIN}http {\n  upstream app { server 127.0.0.1:5000; }\n  upstream php { server unix:/run/php.sock; }\n  server {\n${body}\n  }\n}\n`;
  return (await checkTree({ 'nginx.conf': config, ...extra })).workspace;
}

describe('passes', () => {
  it('resolves each pass to an upstream, an implicit upstream, or nothing it can know', async () => {
    const workspace = await locations(
      [
        '    location /a { proxy_pass http://APP/; }',
        '    location /b { proxy_pass http://app:8080; }',
        '    location /c { proxy_pass http://10.0.0.1:5000; }',
        '    location /d { proxy_pass http://$backend; }',
        '    location /e { proxy_pass http://unknown; }',
        '    location ~ \\.php$ { fastcgi_pass php; }',
        '    location /f { proxy_pass; }',
        '    location /g { proxy_pass http://{{ $.APP }}; }',
      ].join('\n'),
    );
    expect(passes(workspace).map(summary)).toEqual([
      ['proxy_pass http://APP/;', 'upstream app'],
      ['proxy_pass http://app:8080;', 'implicit'],
      ['proxy_pass http://10.0.0.1:5000;', 'implicit'],
      ['proxy_pass http://$backend;', 'unresolved variables'],
      ['proxy_pass http://unknown;', 'implicit'],
      ['fastcgi_pass php;', 'upstream php'],
      ['proxy_pass;', 'unresolved no-target'],
      ['proxy_pass http://{{ $.APP }};', 'unresolved template'],
    ]);
    expect(passes(workspace).map((p) => p.protocol)).toEqual(['http', 'http', 'http', 'http', 'http', 'fastcgi', 'http', 'http']);
    expect(passes(workspace)[0]!.scope.context).toBe('location');
  });

  it('lists the users of an upstream with their protocols, once per place a snippet is included', async () => {
    const workspace = await locations(
      [
        '    location /api { include proxy.conf; }',
        '    location /v2 { include proxy.conf; }',
        '    location /rpc { grpc_pass grpc://app; }',
        '    location /mc { memcached_pass app; }',
        '    location /uw { uwsgi_pass app; }',
      ].join('\n'),
      { 'proxy.conf': 'proxy_pass http://app;\n' },
    );
    const [app, php] = upstreams(workspace);
    const users = usersOf(workspace, app!);
    expect(users.map((p) => [p.protocol, p.directive.file.path.endsWith('proxy.conf')])).toEqual([
      ['http', true],
      ['http', true],
      ['grpc', false],
      ['memcached', false],
      ['uwsgi', false],
    ]);
    expect(users[0]!.scope).not.toBe(users[1]!.scope);
    expect(usersOf(workspace, php!)).toEqual([]);
  });

  it('matches templated hosts to templated upstream names, as Dokku writes them', async () => {
    const sigil = [
      '{{ range $upstream_port := $.PROXY_UPSTREAM_PORTS | split " " }}',
      'upstream {{ $.APP }}-{{ $upstream_port }} {',
      '  server {{ $listener }};',
      '}',
      '{{ end }}',
      'server {',
      '  location / {',
      '    proxy_pass http://{{$.APP}}-{{ $upstream_port }};',
      '  }',
      '}',
      '',
    ].join('\n');
    const { workspace } = await checkTree({ 'nginx.conf.sigil': sigil });
    expect(passes(workspace).map(summary)).toEqual([
      ['proxy_pass http://{{$.APP}}-{{ $upstream_port }};', 'upstream {{ $.APP }}-{{ $upstream_port }}'],
    ]);
  });

  it('links a pass whose scheme or host envsubst fills in to the upstream it names', async () => {
    const template = [
      'upstream backend { server 127.0.0.1:8080; }',
      'upstream ${BACKEND} { server 127.0.0.1:8081; }',
      'server {',
      '  location / { proxy_pass ${UPSTREAM_SCHEME}backend; }',
      '  location /b/ { proxy_pass http://${BACKEND}; }',
      '  location /c/ { proxy_pass http://${OTHER}; }',
      '  location /d/ { proxy_pass http://${OTHER}:8080; }',
      '}',
      '',
    ].join('\n');
    const { workspace } = await checkTree({ 'default.conf.template': template });
    expect(passes(workspace).map(summary)).toEqual([
      ['proxy_pass ${UPSTREAM_SCHEME}backend;', 'upstream backend'],
      ['proxy_pass http://${BACKEND};', 'upstream ${BACKEND}'],
      ['proxy_pass http://${OTHER};', 'unresolved template'],
      ['proxy_pass http://${OTHER}:8080;', 'implicit'],
    ]);
  });

  it('prefers the upstream of its own root, and looks in the other roots otherwise', async () => {
    const site = (port: number) => `upstream app { server 127.0.0.1:${port}; }\nserver { location / { proxy_pass http://app; } }\n`;
    const { workspace } = await checkTree(
      {
        'conf.d/one.conf': site(5001),
        'conf.d/two.conf': site(5002),
        'conf.d/three.conf': 'server { location / { proxy_pass http://app; } }\n',
      },
      ['conf.d/one.conf', 'conf.d/two.conf', 'conf.d/three.conf'],
    );
    const servers = passes(workspace).map((pass) =>
      pass.resolution.kind === 'upstream' ? pass.resolution.upstreams.map((u) => source(u.servers[0]!)) : [],
    );
    expect(servers).toEqual([['server 127.0.0.1:5001;'], ['server 127.0.0.1:5002;'], ['server 127.0.0.1:5001;', 'server 127.0.0.1:5002;']]);
  });
});
