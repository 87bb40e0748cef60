// Real nginx for `prove`: the binary found, `nginx -t` on the sandbox, nginx started in the foreground in the private
// prefix, and stopped. nginx's output goes to a file in the prefix, not a pipe: configs may log to /dev/stdout, which
// Linux cannot open() when it is one of the socket pairs Node uses for pipes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { NginxModules } from '../../engine/sandbox-protocols.js';

const FALLBACK_NGINX = '/usr/sbin/nginx';

/** `--nginx PATH`, else `nginx` on PATH, else /usr/sbin/nginx; undefined when none is executable. */
export function findNginx(given: string | undefined, envPath: string | undefined): string | undefined {
  const executable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (given !== undefined) return executable(given) ? given : undefined;
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir !== '' && executable(path.join(dir, 'nginx'))) return path.join(dir, 'nginx');
  }
  return executable(FALLBACK_NGINX) ? FALLBACK_NGINX : undefined;
}

/** `nginx -v`'s version (`1.22.1`), or undefined when it does not say. */
export function nginxVersion(binary: string): string | undefined {
  const result = spawnSync(binary, ['-v'], { encoding: 'utf8', timeout: 10_000 });
  return /nginx\/(\d+\.\d+\.\d+)/.exec(`${result.stderr ?? ''}${result.stdout ?? ''}`)?.[1];
}

/** `nginx -V`'s output: the version line and the configure arguments. */
function configureText(binary: string): string {
  const result = spawnSync(binary, ['-V'], { encoding: 'utf8', timeout: 10_000 });
  return `${result.stderr ?? ''}${result.stdout ?? ''}`;
}

/** `nginx -V`'s --prefix and --modules-path (where a relative load_module and the build's modules are). */
export function nginxPaths(binary: string): { prefix: string | undefined; modules: string | undefined } {
  const text = configureText(binary);
  return { prefix: /--prefix=(\S+)/.exec(text)?.[1], modules: /--modules-path=(\S+)/.exec(text)?.[1] };
}

/**
 * What the binary was built with, from `nginx -V`'s configure arguments (uwsgi, SCGI and gRPC are built unless
 * disabled; SSL and HTTP/2 only when asked for, and gRPC needs HTTP/2). A module loaded with load_module is not seen.
 */
export function nginxModules(binary: string): NginxModules {
  const configure = ` ${configureText(binary).replace(/\s+/g, ' ')} `;
  const has = (flag: string): boolean => configure.includes(` ${flag} `) || configure.includes(` ${flag}=`);
  const http2 = has('--with-http_v2_module');
  return {
    ssl: has('--with-http_ssl_module'),
    http2,
    uwsgi: !has('--without-http_uwsgi_module'),
    scgi: !has('--without-http_scgi_module'),
    grpc: http2 && !has('--without-http_grpc_module'),
  };
}

function commandLine(prefix: string, conf: string, extra: readonly string[]): string[] {
  const globals =
    `daemon off; worker_processes 1; pid ${path.join(prefix, 'nginx.pid')}; ` +
    `error_log ${path.join(prefix, 'logs', 'error.log')};`;
  return ['-p', `${prefix}/`, '-e', path.join(prefix, 'logs', 'startup.log'), '-c', conf, '-g', globals, ...extra];
}

/** `nginx -t` on the sandbox: undefined when it accepts it, else nginx's own [emerg] lines. */
export function testConfig(binary: string, prefix: string, conf: string): string | undefined {
  const outFile = path.join(prefix, 'logs', 'nginx-t.out');
  const out = openSync(outFile, 'w');
  let status: number | null;
  try {
    status = spawnSync(binary, commandLine(prefix, conf, ['-t', '-q']), { stdio: ['ignore', out, out], timeout: 30_000 }).status;
  } finally {
    closeSync(out);
  }
  if (status === 0) return undefined;
  const output = readFileSync(outFile, 'utf8');
  const errors = output.split('\n').filter((line) => /\[(emerg|alert|crit)\]/.test(line));
  return (errors.length > 0 ? errors : [output.trim() || `nginx -t exited ${status}`]).join('\n');
}

export interface RunningNginx {
  process: ChildProcess;
  stop(): Promise<void>;
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

/** Starts nginx and resolves once every port accepts connections; throws with the error log if it exits first. */
export async function startNginx(
  binary: string,
  prefix: string,
  conf: string,
  ports: readonly number[],
  deadline: number,
  onSpawn: (running: RunningNginx) => void,
): Promise<RunningNginx> {
  const logFile = path.join(prefix, 'logs', 'nginx.out');
  const out = openSync(logFile, 'w');
  const child = spawn(binary, commandLine(prefix, conf, []), { stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: RunningNginx = {
    process: child,
    stop: async () => {
      // SIGTERM: nginx's fast shutdown (its workers stop with it); a graceful one would wait on open requests.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  onSpawn(running);
  // nginx gives no readiness signal in the foreground: each attempt is a real connect, no sleeping.
  for (const port of ports) {
    while (!(await canConnect(port))) {
      // Exited, or killed by a signal before it set its handlers (a Ctrl-C right after the spawn): no exit code then.
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        await running.stop();
        const errorLog = path.join(prefix, 'logs', 'error.log');
        const log = [logFile, errorLog].filter(existsSync).map((file) => readFileSync(file, 'utf8')).join('');
        throw new Error(`nginx did not start listening on 127.0.0.1:${port}: ${log.trim()}`);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return running;
}
