// Issue 27: `load_module` lines. A module the local nginx has is loaded from its own modules (the same path under its
// --prefix, else the same file name in its --modules-path); one it lacks is left out, and a location using one of
// that module's directives is skipped with the reason instead of failing the whole run. A missing module's directive
// outside a location leaves no runnable copy: exit 2 with nginx's own message at the user's file and line.
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { buildSandbox } from '../../server/src/engine/sandbox-config.js';
import { localModules } from '../../server/src/cli/prove/sandbox-run.js';
import { sandboxStubs } from '../support/sandbox-stubs.js';
import { CONCURRENCY, LOAD, NGINX, project, prove, proveJson, REQUESTS } from './prove-helpers.js';

const MAIN = (serverLevel = '') => [
  'load_module modules/ndk_http_module.so;',
  'load_module modules/ngx_http_lua_module.so;',
  'load_module /etc/nginx/modules/ngx_http_echo_module.so;',
  'events {}',
  'http {',
  '    upstream app { server 10.0.0.9:80; }',
  '    server {',
  '        listen 80;',
  serverLevel,
  '        location /hello {',
  '            echo "hello";',
  '            proxy_pass http://app;',
  '        }',
  '        location /api {',
  '            proxy_pass http://app;',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

describe('prove: load_module', () => {
  it('loads the modules the local nginx has, and skips the location that needs one it lacks', async () => {
    const where = project({ 'nginx.conf': MAIN() });
    const { result, locations } = await proveJson(where);
    expect(result.status, result.stderr).toBe(0);
    const [hello, api] = locations;
    expect(hello!.skipped).toMatch(/^"echo" is a directive of a module the local nginx does not have \(.*nginx\.conf:3: load_module \/etc\/nginx\/modules\/ngx_http_echo_module\.so\)$/);
    expect(api!.skipped).toBeNull();
    expect(api!.before!.connections).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(api!.after!.connections).toBeLessThanOrEqual(CONCURRENCY);
    expect(result.stderr).toContain('load_module /etc/nginx/modules/ngx_http_echo_module.so left out (the local nginx has no such module)');
    expect(result.stderr).not.toContain('ndk_http_module.so left out');
    // The copy nginx ran loads Debian's own objects (lua needs ndk loaded first, or nginx -t fails).
    const file = `${where.dir}/nginx.conf`;
    const { workspace } = await analyzeWorkspace([{ path: file, text: MAIN() }], { readRoots: [where.dir] }, []);
    const sandbox = buildSandbox(workspace, { ...sandboxStubs(), prefix: '/p', nextPort: () => 3, module: localModules(NGINX) });
    const copy = [...sandbox.files.values()][0]!;
    expect(copy.split('\n').slice(0, 3)).toEqual([
      'load_module /usr/share/nginx/modules/ndk_http_module.so;',
      'load_module /usr/share/nginx/modules/ngx_http_lua_module.so;',
      '',
    ]);
  });

  it("exits 2 with nginx's message when a missing module's directive is outside a location", async () => {
    const where = project({ 'nginx.conf': MAIN('        echo_flush;') });
    const result = await prove(where, [...LOAD, '.']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/nginx: \[emerg\] unknown directive "echo_flush" in .*\/project\/nginx\.conf:9\n/);
    expect(result.stderr).toContain('(left out, the local nginx has no such module:');
  });
});
