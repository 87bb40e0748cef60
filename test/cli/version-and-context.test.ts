// End to end (dist/cli.js): the nginx version detected from a Dockerfile or compose file changes the findings and is
// named in the reports; --context and the settings file's "contexts" state a snippet's context (issue 11, items 5-6).
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

/** An upstream without keepalive: a finding before 1.29.7, none after (nginx then keeps 32 by default). */
const NGINX_CONF =
  'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { listen 80; location / { proxy_pass http://app; } }\n}\n';
const SNIPPET = 'proxy_set_header Connection $http_connection;\n';

function repo(extra: Record<string, string>): string {
  return tree({ '.git/HEAD': 'ref: refs/heads/main\n', 'deploy/nginx/nginx.conf': NGINX_CONF, ...extra });
}

describe('nginx version detection', () => {
  it('a Dockerfile at the repository root above the checked directory decides whether upstream-keepalive applies', () => {
    const old = runCli(repo({ Dockerfile: 'FROM nginx:1.24\n' }), ['check', 'deploy/nginx']);
    expect(old.stdout).toContain('upstream-keepalive');
    expect(old.stdout).toContain('assuming nginx 1.24 (Dockerfile:1)');
    const modern = runCli(repo({ Dockerfile: 'FROM node:20 AS build\nFROM nginx:1.31-alpine\n' }), ['check', 'deploy/nginx']);
    expect(modern).toMatchObject({ status: 0, stdout: '' });
  });

  it('prints an image reference escaped, and takes nothing from a tag that is not one (summary line and SARIF)', () => {
    const root = repo({ Dockerfile: 'FROM nginx:1.24\x1b[2J\n' });
    const said = 'assuming nginx before 1.29.7 (default: Dockerfile:1 "nginx:1.24\\x1b[2J", its tag is not a valid image tag)';
    const stylish = runCli(root, ['check', 'deploy/nginx']);
    expect(stylish.stdout).toContain(said);
    expect(stylish.stdout + stylish.stderr).not.toContain('\x1b');
    const sarif = JSON.parse(runCli(root, ['check', '--format', 'sarif', 'deploy/nginx']).stdout);
    const target = sarif.runs[0].properties.nginxTarget;
    expect(target.image).toBe('"nginx:1.24\\x1b[2J"');
    expect(JSON.stringify(target)).not.toContain('\\u001b');
    const compose = repo({ 'compose.yaml': 'services:\n  web:\n    image: "ev\x1b]0;x\x07il.io/nginx:1.22"\n' });
    expect(runCli(compose, ['check', '.']).stdout).toContain('assuming nginx 1.22 (compose.yaml:3)');
    const composeSarif = JSON.parse(runCli(compose, ['check', '--format', 'sarif', '.']).stdout);
    expect(composeSarif.runs[0].properties.nginxTarget.image).toBe('"ev\\x1b]0;x\\x07il.io/nginx:1.22"');
  });

  it('reads compose files, and the oldest nginx image inside the checked directory wins', () => {
    const root = repo({
      'compose.yaml': 'services:\n  web:\n    image: nginx:stable\n',
      'deploy/nginx/Dockerfile': 'FROM nginx:1.22\n',
    });
    expect(runCli(root, ['check', 'deploy/nginx']).stdout).toContain('assuming nginx 1.22 (deploy/nginx/Dockerfile:1)');
    expect(runCli(root, ['check', '.']).stdout).toContain('assuming nginx 1.22 (deploy/nginx/Dockerfile:1)');
    const composeOnly = repo({ 'docker-compose.yml': 'services:\n  web:\n    image: "nginx:stable-alpine"\n' });
    expect(runCli(composeOnly, ['check', 'deploy/nginx'])).toMatchObject({ status: 0, stdout: '' });
  });

  it('flag, then settings file, then detection, then the default', () => {
    const root = repo({ Dockerfile: 'FROM nginx:1.31\n' });
    expect(runCli(root, ['check', 'deploy/nginx', '--nginx-version', '1.24.0']).stdout).toContain(
      'assuming nginx 1.24.0 (--nginx-version)',
    );
    const withSettings = repo({ Dockerfile: 'FROM nginx:1.31\n', '.nginx-keepalive.json': '{"nginxVersion": "1.26"}' });
    expect(runCli(withSettings, ['check', 'deploy/nginx']).stdout).toContain('assuming nginx 1.26.0 (.nginx-keepalive.json)');
    expect(runCli(withSettings, ['check', 'deploy/nginx', '--nginx-version', '1.31.0'])).toMatchObject({ stdout: '' });
    expect(runCli(repo({}), ['check', 'deploy/nginx']).stdout).toContain('assuming nginx before 1.29.7 (default)');
    const unknown = runCli(repo({ Dockerfile: 'ARG TAG\nFROM nginx:${TAG}\n' }), ['check', 'deploy/nginx']);
    expect(unknown.stdout).toContain('assuming nginx before 1.29.7 (default: Dockerfile:2 nginx:${TAG}');
  });

  it('reads nothing above the checked path outside a repository', () => {
    // No .git: the Dockerfile above the checked directory is not the checked project's.
    const root = tree({ Dockerfile: 'FROM nginx:1.31\n', 'deploy/nginx/nginx.conf': NGINX_CONF });
    expect(runCli(root, ['check', 'deploy/nginx']).stdout).toContain('(default)');
  });

  it('puts the assumed version in the SARIF run properties', () => {
    const result = runCli(repo({ Dockerfile: 'FROM openresty/openresty:1.27.1.2-alpine\n' }), ['check', 'deploy/nginx', '-f', 'sarif']);
    const run = JSON.parse(result.stdout).runs[0];
    expect(run.properties.nginxTarget).toEqual({
      description: 'nginx 1.27.1 (Dockerfile:1)',
      version: '1.27.1',
      label: '1.27.1',
      source: 'detected',
      file: 'Dockerfile',
      line: 1,
      image: 'openresty/openresty:1.27.1.2-alpine',
    });
  });
});

describe('--context and "contexts"', () => {
  it('a snippet checked alone gets its fix once its context is given, and the file comment wins', () => {
    const root = tree({ 'snippets/proxy.conf': SNIPPET });
    const unknown = runCli(root, ['check', 'snippets/proxy.conf']);
    expect(unknown.stdout).toContain("this file's context is unknown");
    const given = runCli(root, ['check', 'snippets/proxy.conf', '--context', 'http', '--fix-dry-run']);
    expect(given.stdout).toContain('+map $http_upgrade $connection_upgrade {');
    const location = runCli(root, ['check', 'snippets/proxy.conf', '--context', 'location', '--fix-dry-run']);
    expect(location.stdout).toBe('');
    const commented = tree({ 'proxy.conf': `# nginx-keepalive: context=location\n${SNIPPET}` });
    expect(runCli(commented, ['check', 'proxy.conf', '--context', 'http', '--fix-dry-run']).stdout).toBe('');
  });

  it('takes the first matching glob of the settings file; --context overrides it', () => {
    const root = tree({
      '.nginx-keepalive.json': '{"contexts": {"snippets/loc-*.conf": "location", "*.conf": "http"}}',
      'snippets/proxy.conf': SNIPPET,
      'snippets/loc-proxy.conf': SNIPPET,
    });
    expect(runCli(root, ['check', 'snippets/proxy.conf', '--fix-dry-run']).stdout).toContain('+map $http_upgrade');
    expect(runCli(root, ['check', 'snippets/loc-proxy.conf', '--fix-dry-run']).stdout).toBe('');
    expect(runCli(root, ['check', 'snippets/loc-proxy.conf', '--context', 'http', '--fix-dry-run']).stdout).toContain('+map');
  });

  it('rejects an unknown context on the command line and in the settings file', () => {
    const root = tree({ 'a.conf': SNIPPET });
    expect(runCli(root, ['check', '--context', 'if'])).toMatchObject({ status: 2 });
    expect(runCli(root, ['check', '--context', 'if']).stderr).toContain('invalid --context "if"');
    const bad = tree({ '.nginx-keepalive.json': '{"contexts": {"*.conf": "events"}}', 'a.conf': SNIPPET });
    const result = runCli(bad, ['check', 'a.conf']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"contexts.*.conf": expected one of main, http, server, location, stream, upstream');
  });
});
