// Discovery by content (issue 11, item 1): a directory check reads the configs users have under any name (Debian
// site files without an extension, envsubst `*.conf.template`, Jinja2 `*.j2`), never data, code or documents, says
// what it skipped when asked (--debug, and a count under the stylish summary), and fails when it finds nothing.
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverFiles } from '../../server/src/cli/discover.js';
import { sniffNginxContent } from '../../server/src/engine/nginx-content.js';
import { claimByName, classifyFile } from '../../server/src/engine/nginx-files.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

/** An upstream without keepalive proxied to: one finding wherever it is read from. */
const site = (name: string, port: number, extra = '') =>
  `upstream ${name} {\n  server 127.0.0.1:${port};\n}\nserver {\n  listen 80;\n  server_name ${name}.example;${extra}\n` +
  `  location / {\n    proxy_pass http://${name};\n  }\n}\n`;

/** Named as GitLab, Jitsi and the official Docker image name theirs; contents nginx, names saying nothing. */
const NGINX_TREE: Record<string, string> = {
  'lib/support/nginx/gitlab-ssl': site('gitlab', 8080),
  'doc/debian/jitsi-meet.example': site('jitsi', 5280),
  'sites-available/web_rl.com': site('web', 3000),
  'templates/default.conf.template': site('app', 9000, '\n  client_max_body_size ${MAX_BODY};'),
  'roles/web/templates/vhost.j2':
    '{# Ansible role template #}\n{% for app in apps %}\nupstream {{ app.name }} {\n  server {{ app.host }}:{{ app.port }};\n' +
    '}\n{% endfor %}\nserver {\n  listen {{ port | default(80) }};\n{% if ssl %}\n  ssl_certificate {{ cert }};\n' +
    '{% endif %}\n  location / {\n    proxy_pass http://{{ apps[0].name }};\n  }\n}\n',
  'deploy/site.conf': site('plain', 4000),
};

/** Never nginx, even though most of them mention nginx directives. */
const OTHER_TREE: Record<string, string> = {
  'package.json': '{ "scripts": { "start": "nginx -c nginx.conf" } }\n',
  'docker-compose.yml': 'services:\n  web:\n    image: nginx:1.27\n',
  'README.md': '```nginx\nserver {\n  listen 80;\n  proxy_pass http://app;\n}\n```\n',
  'deploy/compose.yml.j2': 'services:\n  web:\n    image: "{{ image }}"\n',
  'deploy/settings.json.template': '{ "listen": "${PORT}" }\n',
  'scripts/reload.sh': '#!/bin/sh\nnginx -s reload;\n',
  'src/server.ts': 'server.listen(80);\nproxy_pass(x);\n',
  'Dockerfile': 'FROM nginx\nCOPY site.conf /etc/nginx/conf.d/\n',
  'bin/tool': '#!/usr/bin/env node\nconst server = require("http").createServer();\nserver.listen(80);\n',
  'notes.txt': 'Remember to run listen 80 on the box\nand then restart everything\nand check the logs\n',
  'logo.png': '\u0089PNG\r\n\u001a\n\u0000\u0000listen 80;\n',
  'node_modules/pkg/nginx.conf': site('dependency', 1),
  'vendor/lib/site': site('vendored', 2),
  '.venv/share/site': site('venv', 3),
};

interface Reported {
  filePath: string;
  messages: Array<{ ruleId: string; line: number; column: number }>;
}

function findings(cwd: string, args: string[]): string[] {
  const result = runCli(cwd, ['check', '--format', 'json', ...args]);
  expect(result.stdout, result.stderr).not.toBe('');
  return (JSON.parse(result.stdout) as Reported[])
    .flatMap((file) => file.messages.map((m) => `${path.relative(cwd, file.filePath)}:${m.line}:${m.column} ${m.ruleId}`))
    .sort();
}

describe('check <dir> reads configs by content', () => {
  it('reports the same findings as passing each nginx file explicitly, and none from the other files', () => {
    const root = tree({ ...NGINX_TREE, ...OTHER_TREE });
    const walked = findings(root, ['.']);
    const named = findings(root, Object.keys(NGINX_TREE));
    expect(walked).toEqual(named);
    // Every nginx file was read (each has an upstream without keepalive), and nothing else was.
    const files = new Set(walked.map((line) => line.slice(0, line.indexOf(':'))));
    expect([...files].sort()).toEqual(Object.keys(NGINX_TREE).sort());
  });

  it('claims exactly the nginx files, whatever their names', () => {
    const root = tree({ ...NGINX_TREE, ...OTHER_TREE });
    const found = discoverFiles(['.'], root);
    expect(found.errors).toEqual([]);
    expect(found.files.map((file) => path.relative(root, file))).toEqual(Object.keys(NGINX_TREE).sort());
  });
});

describe('well-known non-nginx files are never claimed', () => {
  it.each([
    'a.json', 'a.yaml', 'a.yml', 'a.md', 'a.xml', 'a.toml', 'a.js', 'a.ts', 'a.py', 'a.go', 'a.rb', 'a.php', 'a.java',
    'a.c', 'a.h', 'a.sh', 'yarn.lock', 'Cargo.lock', 'a.png', 'a.zip', 'a.tar.gz', 'server.pem', 'Dockerfile',
    'Makefile', 'LICENSE', 'compose.yml.j2', 'values.yaml.template', 'config.json.jinja2',
  ])('%s, even when its text is nginx', (name) => {
    expect(claimByName(name)).toMatchObject({ kind: 'never' });
    const root = tree({ [name]: site('x', 1) });
    expect(classifyFile(path.join(root, name)).claimed).toBe(false);
  });

  it('nor anything under node_modules, .git, vendor, .venv and friends', () => {
    const dirs = ['node_modules', '.git', 'vendor', '.venv', 'venv', '__pycache__', 'bower_components', '.hg', '.svn'];
    const root = tree(Object.fromEntries(dirs.map((dir) => [`${dir}/x/site.conf`, site('x', 1)])));
    const found = discoverFiles(['.'], root);
    expect(found.files).toEqual([]);
    expect(found.skipped?.map((entry) => path.relative(root, entry.path)).sort()).toEqual([...dirs].sort());
  });

  it('nor binary, huge or clearly other text files named like templates or not named at all', () => {
    const root = tree({
      'binary.template': Buffer.concat([Buffer.from(site('x', 1)), Buffer.from([0, 1, 2])]),
      'huge-site': `${site('x', 1)}${'# padding\n'.repeat(120_000)}`,
      'named.conf.local': 'zone "example.com" {\n  type master;\n  file "/etc/bind/db.example";\n};\n',
      'keycodes': 'default xkb_keycodes "x" {\n  alias <LatQ> = <AD01>;\n  alias <LatW> = <AD02>;\n};\n',
      'hook': '#!/usr/bin/perl\nmy $x = shift;\ndeny "bad ref" unless $x;\nprint "ok";\n',
    });
    for (const name of ['binary.template', 'huge-site', 'named.conf.local', 'keycodes', 'hook']) {
      expect(classifyFile(path.join(root, name)), name).toMatchObject({ claimed: false });
    }
  });
});

describe('the content sniff', () => {
  it('sees through Jinja2 and Go template syntax, and envsubst placeholders', () => {
    const evidence: string[] = [];
    const text = '{%- if ssl -%}listen 443 ssl;{%- endif %}\n{#\n  a block comment: key: value\n#}\nserver_name ${HOST};\n';
    expect(sniffNginxContent(text, evidence)).toEqual({ nginx: true });
    expect(evidence).toEqual(['listen 443 ssl;', 'server_name ${HOST};']);
    expect(sniffNginxContent('{{ if .SSL }}\nlisten 443 ssl;\n{{ end }}\n').nginx).toBe(true);
  });

  it('says why it declines', () => {
    expect(sniffNginxContent('hello\nworld\n')).toEqual({ nginx: false, reason: 'no nginx directive' });
    expect(sniffNginxContent('listen 80;\nthis is prose\nmore prose\nand more\n').reason).toMatch(/^mostly not nginx syntax/);
  });
});

describe('what a walk skipped, and a walk that finds nothing', () => {
  it('--debug names each skipped file and directory, and why, on stderr', () => {
    const root = tree({ 'site': site('x', 1), 'README.md': 'hi', 'notes': 'just words\n', 'node_modules/a/b.conf': '' });
    const result = runCli(root, ['check', '--debug', '--format', 'json', '.']);
    expect(result.stderr.split('\n').filter((line) => line.includes('debug:'))).toEqual([
      'nginx-keepalive: debug: skipped README.md: a .md file',
      'nginx-keepalive: debug: skipped node_modules/: dependencies or version control',
      'nginx-keepalive: debug: skipped notes: no nginx directive',
    ]);
    expect(runCli(root, ['check', '--format', 'json', '.']).stderr).not.toContain('debug:');
  });

  it('--debug names a FIFO and a dangling link too, which the walk never opens', () => {
    const root = tree({ 'site': site('x', 1) });
    execFileSync('mkfifo', [path.join(root, 'pipe.conf')]);
    symlinkSync('missing.conf', path.join(root, 'dangling.conf'));
    const result = runCli(root, ['check', '--debug', '--format', 'json', '.']);
    expect(result.stderr.split('\n').filter((line) => line.includes('debug:'))).toEqual([
      'nginx-keepalive: debug: skipped dangling.conf: a symbolic link to no regular file or directory, not read',
      'nginx-keepalive: debug: skipped pipe.conf: a FIFO (named pipe), not read',
    ]);
  });

  it('counts the skipped files under the stylish summary', () => {
    const root = tree({ 'site': site('x', 1), 'README.md': 'hi', 'notes': 'just words\n' });
    const result = runCli(root, ['check', '--no-color', '.']);
    expect(result.stdout).toMatch(/\n {2}2 files skipped as not nginx \(--debug lists them\)\n$/);
  });

  it('exits 2 and says so when a directory holds no nginx file', () => {
    const root = tree({ 'docs/readme.md': 'hello', 'docs/notes': 'words\n' });
    const result = runCli(root, ['check', 'docs']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('nginx-keepalive: docs: no nginx files found (2 files skipped; --debug says why)');
  });
});
