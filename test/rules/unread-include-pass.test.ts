// proxy-http-version at a pass whose HTTP version only an include the checker could not read can give (issue 25 §3):
// information at the pass, no fix, saying how to let the checker read it. Real files on disk, the real host.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` into a fresh directory and checks its site.conf with the real disk host. */
async function check(files: Record<string, string>, options: (dir: string) => AnalyzeOptions = () => ({})) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-unread-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const site = path.join(dir, 'site.conf');
  const findings = await analyze([{ path: site, text: files['site.conf']! }], options(dir));
  return findings.filter((finding) => finding.ruleId === 'proxy-http-version');
}

const site = (serverLines: string, locationLines = '') =>
  [
    'upstream app {\n    server 127.0.0.1:5000;\n    keepalive 16;\n}',
    `server {\n    listen 127.0.0.1:8080;\n${serverLines}`,
    `    location / {\n${locationLines}        proxy_set_header Connection "";\n        proxy_pass http://app;\n    }\n}\n`,
  ].join('\n');

describe('a pass behind an include the checker could not read', () => {
  it('is information at the pass when the include is outside the checked paths, with the --path-map to use', async () => {
    const [finding, ...rest] = await check({ 'site.conf': site('    include /etc/nginx/snippets/proxy.conf;\n') });
    expect(rest).toEqual([]);
    expect(finding?.severity).toBe('info');
    expect(finding?.span.start.line).toBe(10);
    expect(finding?.message).toBe('HTTP version depends on an include that could not be read: let the checker read it');
    expect(finding?.detail).toContain('"include /etc/nginx/snippets/proxy.conf" on the server level (site.conf:7)');
    expect(finding?.detail).toContain('--path-map /etc/nginx/snippets=<dir>');
    expect(finding?.fix).toBeUndefined();
    expect(finding?.fixable).toBeUndefined();
  });

  it('is information when the included file is missing, saying to check the directory holding it', async () => {
    const [finding] = await check({ 'site.conf': site('    include snippets/proxy.conf;\n') });
    expect(finding?.severity).toBe('info');
    expect(finding?.detail).toContain('not found or could not be read: check the directory holding it');
    expect(finding?.fix).toBeUndefined();
  });

  it('becomes what the file says once --path-map lets the checker read it', async () => {
    const include = '    include /etc/nginx/snippets/proxy.conf;\n';
    const mapped = (dir: string): AnalyzeOptions => ({ pathMap: [{ from: '/etc/nginx/snippets', to: path.join(dir, 'snippets') }] });
    const withHttp11 = await check({ 'site.conf': site(include), 'snippets/proxy.conf': 'proxy_http_version 1.1;\n' }, mapped);
    expect(withHttp11).toEqual([]);
    const without = await check({ 'site.conf': site(include), 'snippets/proxy.conf': 'proxy_read_timeout 60s;\n' }, mapped);
    expect(without.map((finding) => finding.severity)).toEqual(['warning']);
  });

  it('is not reported when the pass sets its own proxy_http_version 1.1 below the include', async () => {
    expect(await check({ 'site.conf': site('    include snippets/proxy.conf;\n', '        proxy_http_version 1.1;\n') })).toEqual([]);
  });

  it('names the HTTP/1.0 set above the include as what applies otherwise', async () => {
    const [finding] = await check({ 'site.conf': site('    proxy_http_version 1.0;\n', '        include snippets/proxy.conf;\n') });
    expect(finding?.severity).toBe('info');
    expect(finding?.detail).toContain('on location / (site.conf:10)');
    expect(finding?.detail).toContain('if not, the proxy_http_version 1.0 set above it applies');
  });

  it('is not reported from nginx 1.29.7, where HTTP/1.1 is the default above the include', async () => {
    expect(await check({ 'site.conf': site('    include snippets/proxy.conf;\n') }, () => ({ nginxVersion: '1.30.0' }))).toEqual([]);
  });

  it('is not reported for a templated include path: the include rule speaks for those', async () => {
    expect(await check({ 'site.conf': site('    include /srv/{{ $.APP }}/nginx.conf.d/*.conf;\n') })).toEqual([]);
  });
});
