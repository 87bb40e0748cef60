// What the local nginx was built with (not load_module: prove-modules.test.ts) decides what prove runs (engine/sandbox-protocols.ts): a pass whose module is
// missing is skipped with the reason, and its module's directives are left out of the copy so that nginx -t still
// accepts it. Debian's nginx has them all; a build without them is stood for by the modules prove is told of.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nginxModules, testConfig } from '../../server/src/cli/prove/nginx-process.js';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { buildSandbox } from '../../server/src/engine/sandbox-config.js';
import { sandboxStubs } from '../support/sandbox-stubs.js';
import { NGINX } from './prove-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'nk-prove-built-modules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SITE = [
  'upstream py { server 192.0.2.5:3031; keepalive 4; }',
  'server {',
  '    listen 443 ssl http2;',
  '    ssl_certificate /nonexistent/cert.pem;',
  '    ssl_protocols TLSv1.2;',
  '    location /py { uwsgi_param X 1; uwsgi_read_timeout 5s; uwsgi_pass py; }',
  '    location /rb { scgi_param X 1; scgi_pass 192.0.2.6:4000; }',
  '    location /g.Svc/ { grpc_set_header X 1; grpc_pass grpc://192.0.2.7:50051; }',
  '    location /tls { proxy_pass https://192.0.2.8; }',
  '    location /web { proxy_pass http://192.0.2.9; }',
  // Its scheme from a literal set (engine/sandbox-variables.ts): measured like /web.
  '    set $upstream_proto http;',
  '    location /var { proxy_pass $upstream_proto://192.0.2.9:8080; }',
  '}',
  '',
].join('\n');

describe('prove and the modules of the local nginx', () => {
  it('reads them from nginx -V (Debian builds every one prove uses)', () => {
    expect(nginxModules(NGINX)).toEqual({ ssl: true, http2: true, uwsgi: true, scgi: true, grpc: true });
  });

  it('skips the passes of a build without uwsgi, SCGI, HTTP/2 (so gRPC) and SSL, and nginx -t accepts the rest', async () => {
    const file = path.join(root, 'site', 'app.conf');
    const { workspace } = await analyzeWorkspace([{ path: file, text: SITE }], { readRoots: [path.dirname(file)] }, []);
    const prefix = path.join(root, 'prefix');
    let port = 21000;
    const modules = { ssl: false, http2: false, uwsgi: false, scgi: false, grpc: false };
    const sandbox = buildSandbox(workspace, { ...sandboxStubs(path.join(root, 'tls'), true), modules, prefix, nextPort: () => port++ });
    const plans = sandbox.instances.flatMap((instance) => instance.locations);
    expect(plans.map((plan) => [plan.location, plan.skipped])).toEqual([
      ['/py', 'the local nginx has no uwsgi module (built --without-http_uwsgi_module)'],
      ['/rb', 'the local nginx has no SCGI module (built --without-http_scgi_module)'],
      ['/g.Svc/', 'the local nginx has no gRPC module (it needs --with-http_v2_module)'],
      ['/tls', 'the local nginx has no SSL module (--with-http_ssl_module): it cannot reach a TLS upstream'],
      ['/web', null],
      ['/var', null],
    ]);
    // Served in cleartext HTTP/1.1: this nginx could speak nothing else.
    expect(plans[4]).toMatchObject({ tls: false, protocol: 'HTTP/1.1' });
    const copy = [...sandbox.files.values()].join('\n');
    expect(copy).not.toMatch(/\b(uwsgi_|scgi_|grpc_|ssl_|http2)\w*/);
    for (const sub of ['logs', 'tmp', 'cache']) mkdirSync(path.join(prefix, sub), { recursive: true });
    for (const [name, text] of sandbox.files) {
      mkdirSync(path.dirname(name), { recursive: true });
      writeFileSync(name, text);
    }
    expect(testConfig(NGINX, prefix, sandbox.instances[0]!.mainConf)).toBeUndefined();
  });
});
