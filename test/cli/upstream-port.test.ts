// `proxy_pass http://backend:8000` with `upstream backend` in another file: nginx refuses the config ("upstream
// "backend" may not have port 8000", at the pass). Checking the folder, the main file that includes both, or one
// file holding both gives nginx's answer, at nginx's line; the built dist/cli.js on real files, and real nginx -t.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonResult } from '../../server/src/cli/format-json.js';
import { makePrefix, nginxTestFile } from '../support/nginx.js';
import { useTempTrees } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

beforeAll(() => {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
});

const tree = useTempTrees();

const MAIN = 'events {}\nhttp {\n    include conf.d/*.conf;\n}\n';
const UPSTREAM = 'upstream backend {\n    server 127.0.0.1:9000;\n    keepalive 8;\n}\n';
const SITE =
  'server {\n    listen 127.0.0.1:18080;\n    location / {\n        proxy_pass http://backend:8000;\n' +
  '        proxy_http_version 1.1;\n        proxy_set_header Connection "";\n    }\n}\n';

/** Every finding of `check --format json <target>`, as `file:line rule message`, file relative to `root`. */
function check(root: string, ...args: string[]): string[] {
  const result = spawnSync(process.execPath, [cli, 'check', '--format', 'json', ...args], { cwd: root, encoding: 'utf8' });
  const results = JSON.parse(result.stdout) as JsonResult[];
  return results.flatMap((file) =>
    file.messages.map((m) => `${path.relative(root, file.filePath)}:${m.line} ${m.ruleId} ${m.message}`),
  );
}

function nginxSays(root: string): string {
  const prefix = makePrefix();
  try {
    const result = nginxTestFile(path.join(root, 'nginx.conf'), prefix);
    const first = result.errors[0];
    return first ? `${path.relative(root, first.file ?? '')}:${first.line} ${first.message}` : 'ok';
  } finally {
    prefix.remove();
  }
}

describe('a pass with a port to an upstream{} of another file', () => {
  // Both orders: nginx names the pass's line whether it reads the upstream before or after it.
  it.each([
    ['upstream first', { 'conf.d/a-upstream.conf': UPSTREAM, 'conf.d/b-site.conf': SITE }, 'conf.d/b-site.conf'],
    ['pass first', { 'conf.d/a-site.conf': SITE, 'conf.d/b-upstream.conf': UPSTREAM }, 'conf.d/a-site.conf'],
  ])('is reported as nginx -t reports it, checking the folder or the main file (%s)', (_order, files, site) => {
    const root = tree({ 'nginx.conf': MAIN, ...files });
    expect(nginxSays(root)).toBe(`${site}:4 upstream "backend" may not have port 8000`);
    const expected = [`${site}:4 directive upstream "backend" may not have port 8000: remove the port from proxy_pass`];
    expect(check(root, '.')).toEqual(expected);
    expect(check(root, 'nginx.conf')).toEqual(expected);
    // The two files without the main one (roots apart, as site files are): the pass resolves to that upstream.
    expect(check(root, 'conf.d')).toEqual(expected);
    expect(check(root, '--jobs', '2', 'conf.d')).toEqual(expected);
  });

  it('is reported in a single file holding both', () => {
    const root = tree({ 'nginx.conf': `events {}\nhttp {\n${SITE}${UPSTREAM}}\n` });
    expect(nginxSays(root)).toBe('nginx.conf:6 upstream "backend" may not have port 8000');
    expect(check(root, 'nginx.conf')).toEqual([
      'nginx.conf:6 directive upstream "backend" may not have port 8000: remove the port from proxy_pass',
    ]);
  });

  it('is not reported where nginx accepts it: variables in the URL, or no port', () => {
    const site = (target: string) => SITE.replace('http://backend:8000', target);
    for (const target of ['http://backend:8000$request_uri', 'http://backend']) {
      const root = tree({ 'nginx.conf': MAIN, 'conf.d/a-upstream.conf': UPSTREAM, 'conf.d/b-site.conf': site(target) });
      expect(nginxSays(root), target).toBe('ok');
      expect(check(root, '.'), target).toEqual([]);
    }
  });
});
