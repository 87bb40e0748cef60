// Runs the real nginx binary (Debian's package) for tests: `nginx -t` on a config, or a running server on loopback.
// Everything lives in a temporary prefix: pid file, logs, temp and cache paths, so nothing touches /var, /run or /tmp
// (nginx reads a confined copy of each config: nginx-confine.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NginxContext } from './expectations.js';
import { confineConfig, recordTracedWrites, TEMP_KINDS, tracedIfAsked } from './nginx-confine.js';

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
  const httpTempPaths = TEMP_KINDS
    .map((kind) => `${kind}_temp_path ${path.join(dir, 'tmp', kind)};`)
    .join(' ');
  return { dir, httpTempPaths, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The global directives given with -g, so configs need not (and must not) set pid or the main error_log. */
function commandLine(prefix: string, confPath: string, extra: string[]): string[] {
  const globals = `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log ${path.join(prefix, 'logs', 'error.log')};`;
  return [...prefixOptions(prefix, confPath), '-g', globals, ...extra];
}

function prefixOptions(prefix: string, confPath: string): string[] {
  // -e: the error log nginx writes to before it has read the config (otherwise /var/log/nginx/error.log).
  return ['-p', `${prefix}/`, '-e', path.join(prefix, 'logs', 'startup.log'), '-c', confPath];
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

/**
 * Runs `nginx -t` on a confined copy of `confPath` (nginx-confine.ts), its output going to a file in the prefix, not
 * to pipes: configs log to /dev/stdout or /dev/stderr (container style), and Linux cannot open() those when they are
 * the socket pairs Node uses for pipes. `args` gets the copy's path and whether the config sets `pid` itself.
 */
function runNginxTest(confPath: string, prefix: NginxPrefix, args: (conf: string, setsPid: boolean) => string[]): NginxTestResult {
  const confined = confineConfig(confPath, prefix.dir);
  const outFile = path.join(prefix.dir, 'logs', 'nginx-t.out');
  const out = openSync(outFile, 'w');
  let status: number | null;
  try {
    const command = tracedIfAsked([requireNginx(), ...args(confined.confPath, confined.setsPid)]);
    const result = spawnSync(command[0]!, command.slice(1), { stdio: ['ignore', out, out] });
    if (result.error) throw result.error;
    status = result.status;
    recordTracedWrites(prefix.dir);
  } finally {
    closeSync(out);
  }
  const output = confined.restore(readFileSync(outFile, 'utf8'));
  return { ok: status === 0, output, errors: parseNginxMessages(output) };
}

/** Runs `nginx -t` on a config file (absolute path) inside a prefix. */
export function nginxTestFile(confPath: string, prefix: NginxPrefix): NginxTestResult {
  return runNginxTest(confPath, prefix, (conf) => commandLine(prefix.dir, conf, ['-t', '-q']));
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

/**
 * Runs `nginx -t` on config snippets included together at one context (default http), e.g. several rendered Dokku app
 * configs in one http block as Dokku includes them.
 */
export function nginxTestSnippets(texts: readonly string[], context: NginxContext = 'http', modules: readonly string[] = []): NginxTestResult {
  return nginxTest((prefix) => {
    const files = texts.map((text, index) => {
      const file = path.join(prefix.dir, `snippet-${index}.conf`);
      writeFileSync(file, text);
      return file;
    });
    const all = path.join(prefix.dir, 'snippets.conf');
    writeFileSync(all, files.map((file) => `include ${file};\n`).join(''));
    return wrapInclude(all, context, prefix, modules);
  });
}

/** The files Debian's nginx keeps next to nginx.conf, which real configs include by relative name (mime.types...). */
export const DEBIAN_CONF_DIR = '/etc/nginx';
export const DEBIAN_CONF_FILES = [
  'mime.types', 'fastcgi.conf', 'fastcgi_params', 'proxy_params', 'scgi_params', 'uwsgi_params', 'koi-utf', 'koi-win', 'win-utf',
  'snippets/fastcgi-php.conf', 'snippets/snakeoil.conf',
] as const;

/** Copies Debian's conf-directory files into `dir`, so a config copied there finds what it would find in /etc/nginx. */
export function copyDebianConfFiles(dir: string): void {
  for (const file of DEBIAN_CONF_FILES) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(DEBIAN_CONF_DIR, file), path.join(dir, file));
  }
}

/**
 * Runs `nginx -t` on a whole main config as it is, for configs from the wild: unlike nginxTestFile, no `error_log` is
 * imposed with -g, nor `pid` when the config sets one (a second one is an error); what they name is moved into the
 * prefix by the confined copy. The modules are loaded with -g before the config is read.
 */
export function nginxTestAsIs(confPath: string, prefix: NginxPrefix, modules: readonly string[] = []): NginxTestResult {
  return runNginxTest(confPath, prefix, (conf, setsPid) => {
    // The config's own pid is moved into the prefix; without one, nginx -t would create its built-in /run/nginx.pid.
    const globals = [loadModuleLines(modules).replace(/\n/g, ' '), setsPid ? '' : `pid ${path.join(prefix.dir, 'nginx.pid')};`].join(' ').trim();
    return [...prefixOptions(prefix.dir, conf), '-t', '-q', ...(globals ? ['-g', globals] : [])];
  });
}

/** `nginx -t` of a corpus file copied into the prefix: a full config as it is, a snippet included at its context. */
export function nginxTestCorpusCopy(copy: string, context: NginxContext, prefix: NginxPrefix, modules: readonly string[]): NginxTestResult {
  if (context === 'main') return nginxTestAsIs(copy, prefix, modules);
  const wrapper = path.join(prefix.dir, 'nk-wrapper.conf');
  writeFileSync(wrapper, wrapInclude(copy, context, prefix, modules));
  return nginxTestFile(wrapper, prefix);
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
