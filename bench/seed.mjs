// The seed's experiment: real nginx in front of a Node upstream answering 50 kB, configured by Dokku's own
// nginx.conf.sigil (rendered with the test suite's Dokku stand-in and Go renderer), before and after
// `nginx-keepalive check --fix` rewrote the template. Load comes from wrk on loopback, with keep-alive clients (wrk's
// default) and with clients sending `Connection: close`; the upstream counts the connections nginx opens to it.
import { execFile, fork, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from './corpus.mjs';

const TEMPLATE = path.join(root, 'test/corpus/sigil/dokku__dokku__plugins__nginx-vhosts__templates__nginx.conf.sigil');
const cli = path.join(root, 'dist', 'cli.js');
// The size of the pool the fix gives the upstream (keepalive 16): more concurrent requests than idle connections kept
// means nginx closes the surplus after each burst, which would blur the before/after difference.
const WRK_CONNECTIONS = 16;

export const CLIENT_MODES = [
  { name: 'keep-alive clients', headers: [] },
  { name: 'Connection: close clients', headers: ['-H', 'Connection: close'] },
];

function startUpstream() {
  const child = fork(path.join(root, 'bench', 'seed-upstream.mjs'), [], { stdio: 'ignore' });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const ask = async (message) => {
    const reply = next();
    child.send(message);
    return reply;
  };
  return next().then(({ port }) => ({ port, reset: () => ask('reset'), count: () => ask('count'), stop: () => child.kill() }));
}

/** The template after `check --fix` (a copy; the corpus file stays as it is). */
function fixedTemplate(workDir) {
  const copy = path.join(workDir, 'nginx.conf.sigil');
  copyFileSync(TEMPLATE, copy);
  const result = spawnSync(process.execPath, [cli, 'check', '--fix', copy], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`check --fix left problems in the Dokku template:\n${result.stdout}${result.stderr}`);
  return copy;
}

function parseWrk(output) {
  const number = (pattern) => Number(pattern.exec(output)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

async function load(port, mode, seconds) {
  const args = ['-t', '1', '-c', String(WRK_CONNECTIONS), '-d', `${seconds}s`, ...mode.headers, `http://127.0.0.1:${port}/`];
  const { stdout } = await promisify(execFile)('wrk', args);
  return parseWrk(stdout);
}

export function seedAvailable() {
  const missing = ['wrk', 'go', 'nginx'].filter((tool) => spawnSync('bash', ['-c', `command -v ${tool}`]).status !== 0);
  return missing.length === 0 ? undefined : `not run: ${missing.join(', ')} not installed`;
}

export async function seedExperiment({ workDir, support, seconds }) {
  const { DokkuHost, renderSigil, startNginx, freePort } = support;
  const upstream = await startUpstream();
  const host = new DokkuHost();
  try {
    const variants = [
      { name: 'Dokku template as shipped', template: TEMPLATE, keepalive: '' },
      { name: 'as shipped, proxy-keepalive 16', template: TEMPLATE, keepalive: '16' },
      { name: 'after check --fix', template: fixedTemplate(workDir), keepalive: '' },
    ];
    const rows = [];
    for (const variant of variants) {
      const port = await freePort();
      const app = { name: 'bench-app', listeners: [`127.0.0.1:${upstream.port}`] };
      const vars = host.vars(app, {
        PROXY_PORT_MAP: `http:${port}:${upstream.port}`,
        PROXY_UPSTREAM_PORTS: String(upstream.port),
        SSL_INUSE: '',
        NGINX_BIND_ADDRESS_IP4: '127.0.0.1',
        NGINX_BIND_ADDRESS_IP6: '::1',
        NGINX_ACCESS_LOG_PATH: 'off',
        PROXY_KEEPALIVE: variant.keepalive,
      });
      const rendered = renderSigil(readFileSync(variant.template, 'utf8'), vars, 'nginx.conf.sigil');
      const nginx = await startNginx((prefix) => {
        const site = path.join(prefix.dir, 'app.conf');
        writeFileSync(site, rendered);
        return `worker_processes 1;\nevents { worker_connections 4096; }\nhttp {\n${prefix.httpTempPaths}\naccess_log off;\ninclude ${site};\n}\n`;
      }, port);
      try {
        for (const mode of CLIENT_MODES) {
          await upstream.reset();
          const result = await load(port, mode, seconds);
          const { connections, requests } = await upstream.count();
          rows.push({ variant: variant.name, mode: mode.name, ...result, upstreamConnections: connections, upstreamRequests: requests });
        }
      } finally {
        await nginx.stop();
      }
    }
    return { seconds, wrkConnections: WRK_CONNECTIONS, rows };
  } finally {
    host.remove();
    upstream.stop();
  }
}
