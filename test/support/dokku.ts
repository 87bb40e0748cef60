// A stand-in Dokku host for rendering nginx.conf.sigil templates the way Dokku does, and checking the result with real
// nginx: the variables Dokku's nginx-vhosts plugin passes to sigil (realistic values for nginx 1.22, the installed
// one), self-signed certificates, and directories for logs, error pages and the app's nginx.conf.d, all in one
// temporary directory. Dokku includes every app's rendered config in one http {} block, so renderApps renders
// several apps (one with a `-` in its name, as Dokku allows) to be included together.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nginxTestSnippets, type NginxTestResult } from './nginx.js';
import { renderSigil } from './render-sigil.js';

export interface DokkuApp {
  name: string;
  /** `ip:port` of each web container, as DOKKU_APP_WEB_LISTENERS lists them. */
  listeners: string[];
}

export const DOKKU_APPS: readonly DokkuApp[] = [
  { name: 'my-app', listeners: ['10.0.0.1:5000', '10.0.0.2:5000'] },
  { name: 'api-v2', listeners: ['10.0.0.3:5000'] },
];

/** Variable sets the templates are rendered with: each a way Dokku really runs an app. */
export const DOKKU_VARIANTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'http and https, proxy-keepalive unset': { PROXY_PORT_MAP: 'http:80:5000 https:443:5000', SSL_INUSE: 'true', PROXY_KEEPALIVE: '' },
  'http and https, proxy-keepalive 32': { PROXY_PORT_MAP: 'http:80:5000 https:443:5000', SSL_INUSE: 'true', PROXY_KEEPALIVE: '32' },
  'http only': { PROXY_PORT_MAP: 'http:80:5000', SSL_INUSE: '', PROXY_KEEPALIVE: '' },
  'http and grpc': { PROXY_PORT_MAP: 'http:80:5000 grpc:8080:5000', SSL_INUSE: '', PROXY_KEEPALIVE: '' },
};

function makeCertificate(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const result = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=dokku.test',
      '-keyout', path.join(dir, 'server.key'), '-out', path.join(dir, 'server.crt')],
    { encoding: 'utf8' },
  );
  if (result.error || result.status !== 0) throw new Error(`openssl failed: ${result.error?.message ?? result.stderr}`);
}

export class DokkuHost {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'nk-dokku-'));
  private readonly certificates = path.join(this.dir, 'certificates');

  constructor() {
    makeCertificate(this.certificates);
    mkdirSync(path.join(this.dir, 'logs'));
  }

  /** What Dokku passes to sigil for `app` (its nginx:set defaults), with `overrides` on top. */
  vars(app: DokkuApp, overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
    const home = path.join(this.dir, 'home');
    const tls = path.join(home, app.name, 'tls');
    mkdirSync(path.join(home, app.name, 'nginx.conf.d'), { recursive: true });
    mkdirSync(tls, { recursive: true });
    for (const file of ['server.crt', 'server.key']) copyFileSync(path.join(this.certificates, file), path.join(tls, file));
    const hostname = `${app.name}.dokku.test`;
    return {
      APP: app.name,
      APP_SSL_PATH: tls,
      CLIENT_BODY_TIMEOUT: '60s',
      CLIENT_HEADER_TIMEOUT: '60s',
      CLIENT_MAX_BODY_SIZE: '1m',
      DOKKU_APP_WEB_LISTENERS: app.listeners.join(' '),
      DOKKU_LIB_ROOT: path.join(this.dir, 'lib'),
      DOKKU_ROOT: home,
      // Dokku decides these from the nginx version: `http2 on;` exists since 1.25.1, http2_push_preload until 1.25.
      HTTP2_DIRECTIVE_SUPPORTED: 'false',
      HTTP2_PUSH_SUPPORTED: 'true',
      KEEPALIVE_TIMEOUT: '75s',
      LINGERING_TIMEOUT: '5s',
      NGINX_ACCESS_LOG_FORMAT: '',
      NGINX_ACCESS_LOG_PATH: path.join(this.dir, 'logs', `${app.name}-access.log`),
      NGINX_BIND_ADDRESS_IP4: '',
      NGINX_BIND_ADDRESS_IP6: '::',
      NGINX_ERROR_LOG_PATH: path.join(this.dir, 'logs', `${app.name}-error.log`),
      NGINX_UNDERSCORE_IN_HEADERS: 'off',
      NOSSL_SERVER_NAME: hostname,
      PROXY_BUFFERING: 'on',
      PROXY_BUFFERS: '8 4k',
      PROXY_BUFFER_SIZE: '4k',
      PROXY_BUSY_BUFFERS_SIZE: '8k',
      PROXY_CONNECT_TIMEOUT: '60s',
      PROXY_KEEPALIVE: '',
      PROXY_PORT_MAP: 'http:80:5000 https:443:5000',
      PROXY_READ_TIMEOUT: '60s',
      PROXY_SEND_TIMEOUT: '60s',
      PROXY_SSL_PORT: '443',
      PROXY_UPSTREAM_PORTS: '5000',
      PROXY_X_FORWARDED_FOR: '$remote_addr',
      PROXY_X_FORWARDED_PORT: '$server_port',
      PROXY_X_FORWARDED_PROTO: '$scheme',
      PROXY_X_FORWARDED_SSL: '',
      SEND_TIMEOUT: '60s',
      SSL_INUSE: 'true',
      SSL_SERVER_NAME: hostname,
      ...overrides,
    };
  }

  /** The template rendered for each app with the same overrides. */
  renderApps(
    templateText: string,
    overrides: Readonly<Record<string, string>> = {},
    apps: readonly DokkuApp[] = DOKKU_APPS,
    name = 'nginx.conf.sigil',
  ): string[] {
    return apps.map((app) => renderSigil(templateText, this.vars(app, overrides), name));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface DokkuCheck {
  variant: string;
  result: NginxTestResult;
}

/**
 * Renders the template for every variant (all apps together in one http block, as Dokku includes them) and runs
 * real `nginx -t` on each. Rendering errors are thrown; nginx's verdicts are returned, one per variant.
 */
export function nginxTestDokkuTemplate(
  host: DokkuHost,
  templateText: string,
  name = 'nginx.conf.sigil',
  apps: readonly DokkuApp[] = DOKKU_APPS,
): DokkuCheck[] {
  return Object.entries(DOKKU_VARIANTS).map(([variant, overrides]) => ({
    variant,
    result: nginxTestSnippets(host.renderApps(templateText, overrides, apps, name)),
  }));
}

/** Failed variants as readable lines (empty when nginx accepted every one). */
export function describeFailures(checks: readonly DokkuCheck[]): string[] {
  return checks.filter((c) => !c.result.ok).map((c) => `${c.variant}: ${c.result.output.trim()}`);
}
