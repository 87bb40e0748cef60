// Runs the real nginx binary (Debian's package) for tests: `nginx -t` on a config, or a running server on loopback.
// Everything lives in a temporary prefix: pid file, error log, temp paths, so nothing touches /var or /run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NginxContext } from './expectations.js';

export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
export const NGINX_MODULES_DIR = '/usr/lib/nginx/modules';

/** Dynamic module packages the tests may load: module name -> .so files (dependencies first) and Debian package. */
const MODULES: Record<string, { files: string[]; apt: string }> = {
  http_lua: { files: ['ndk_http_module.so', 'ngx_http_lua_module.so'], apt: 'libnginx-mod-http-lua' },
  stream: { files: ['ngx_stream_module.so'], apt: 'libnginx-mod-stream' },
};

/** Throws a message saying how to install nginx when the binary is missing. */
export function requireNginx(): string {
  if (!existsSync(NGINX_BIN)) {
    throw new Error(`${NGINX_BIN} not found: install Debian's nginx: apt-get install -y nginx`);
  }
  return NGINX_BIN;
}

/** `load_module` lines for the named modules; throws with the apt-get command when a module is not installed. */
export function loadModuleLines(modules: readonly string[]): string {
  return modules
    .flatMap((name) => {
      const module = MODULES[name];
      if (!module) throw new Error(`unknown nginx module ${name} (known: ${Object.keys(MODULES).join(', ')})`);
      return module.files.map((file) => {
        const so = path.join(NGINX_MODULES_DIR, file);
        if (!existsSync(so)) throw new Error(`${so} not found: install it with apt-get install -y ${module.apt}`);
        return `load_module ${so};`;
      });
    })
    .join('\n');
}

export interface NginxPrefix {
  dir: string;
  /** Directives for http{} that keep nginx's temp files inside the prefix. */
  httpTempPaths: string;
  remove(): void;
}

export function makePrefix(): NginxPrefix {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-nginx-'));
  for (const sub of ['logs', 'tmp']) mkdirSync(path.join(dir, sub));
  const httpTempPaths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${path.join(dir, 'tmp', kind)};`)
    .join(' ');
  return { dir, httpTempPaths, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The global directives given with -g, so configs need not (and must not) set pid or the main error_log. */
function commandLine(prefix: string, confPath: string, extra: string[]): string[] {
  const globals = `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log ${path.join(prefix, 'logs', 'error.log')};`;
  // -e: the error log nginx writes to before it has read the config (otherwise /var/log/nginx/error.log).
  return ['-p', `${prefix}/`, '-e', path.join(prefix, 'logs', 'startup.log'), '-c', confPath, '-g', globals, ...extra];
}

export interface NginxMessage {
  level: string;
  message: string;
  file?: string;
  line?: number;
}

export interface NginxTestResult {
  ok: boolean;
  output: string;
  /** [emerg]/[alert]/[crit] lines, parsed; the first is what nginx stopped on. */
  errors: NginxMessage[];
}

export function parseNginxMessages(output: string): NginxMessage[] {
  const messages: NginxMessage[] = [];
  for (const line of output.split('\n')) {
    const m = /\[(emerg|alert|crit|error)\] (.*)$/.exec(line.trim());
    if (!m) continue;
    // The location is the last ` in <path>:<line>`; messages themselves may say "in" (`arguments in "set"`).
    const located = /^(.*) in (.+):(\d+)$/.exec(m[2]!);
    messages.push(
      located
        ? { level: m[1]!, message: located[1]!, file: located[2]!, line: Number(located[3]) }
        : { level: m[1]!, message: m[2]! },
    );
  }
  return messages;
}

/** Runs `nginx -t` on a config file (absolute path) inside a prefix. */
export function nginxTestFile(confPath: string, prefix: NginxPrefix): NginxTestResult {
  const result = spawnSync(requireNginx(), commandLine(prefix.dir, confPath, ['-t', '-q']), { encoding: 'utf8' });
  if (result.error) throw result.error;
  const output = `${result.stdout}${result.stderr}`;
  return { ok: result.status === 0, output, errors: parseNginxMessages(output) };
}

/** Runs `nginx -t` on config text (a whole main config); the text may use `prefix.httpTempPaths`. */
export function nginxTest(build: (prefix: NginxPrefix) => string): NginxTestResult {
  const prefix = makePrefix();
  try {
    const conf = path.join(prefix.dir, 'nginx.conf');
    writeFileSync(conf, build(prefix));
    return nginxTestFile(conf, prefix);
  } finally {
    prefix.remove();
  }
}

/** A main config that includes `file` at the given context (a file holding http-level content goes inside http{}). */
export function wrapInclude(file: string, context: NginxContext, prefix: NginxPrefix, modules: readonly string[] = []): string {
  const include = `include ${file};`;
  const head = `${loadModuleLines(modules)}\nevents {}\n`;
  switch (context) {
    case 'main':
      return `${head}${include}\n`;
    case 'stream':
      return `${head}stream {\n${include}\n}\n`;
    case 'http':
      return `${head}http {\n${prefix.httpTempPaths}\n${include}\n}\n`;
    case 'server':
      return `${head}http {\n${prefix.httpTempPaths}\nserver {\nlisten 127.0.0.1:1;\n${include}\n}\n}\n`;
    case 'location':
      return `${head}http {\n${prefix.httpTempPaths}\nserver {\nlisten 127.0.0.1:1;\nlocation / {\n${include}\n}\n}\n}\n`;
  }
}

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RunningNginx {
  prefix: NginxPrefix;
  process: ChildProcess;
  /** Contents of the error log so far. */
  errorLog(): string;
  /** Graceful stop (SIGQUIT), waits for the exit, removes the prefix. */
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground with a config built for a fresh prefix, and resolves once `port` accepts
 * connections (the caller puts `listen 127.0.0.1:<port>` in the config, port from freePort()).
 */
export async function startNginx(build: (prefix: NginxPrefix) => string, port: number, timeoutMs = 10_000): Promise<RunningNginx> {
  const prefix = makePrefix();
  const conf = path.join(prefix.dir, 'nginx.conf');
  writeFileSync(conf, build(prefix));
  const child = spawn(requireNginx(), commandLine(prefix.dir, conf, []), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const errorLog = (): string => {
    const file = path.join(prefix.dir, 'logs', 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  const running: RunningNginx = {
    prefix,
    process: child,
    errorLog,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
      prefix.remove();
    },
  };
  const deadline = Date.now() + timeoutMs;
  // Poll the port: nginx gives no readiness signal in the foreground. Each attempt is a real connect, no sleeping.
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await canConnect(port)) return running;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await running.stop();
  throw new Error(`nginx did not start listening on 127.0.0.1:${port}:\n${output}\n${errorLog()}`);
}
