// `nginx-keepalive prove`: the files `check` would read (same discovery, settings, includes, --path-map), fixed in
// memory exactly as `check --fix` would (fixAll; --unsafe-fixes includes the unsafe ones), both versions run by real
// nginx in a private prefix on loopback in front of a counting stub, and the upstream connections compared per
// location. Everything it starts is stopped and the prefix removed on success, failure, timeout, Ctrl-C and SIGTERM.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { displayPath } from '../../util/paths.js';
import type { ProveOptions } from '../args.js';
import type { CheckIo } from '../check.js';
import { EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, type ExitCode } from '../exit-codes.js';
import { measureSide, SandboxRejected, type SideResult } from './measure.js';
import { generateCertificate } from './certificate.js';
import { findNginx, nginxModules, nginxVersion, type RunningNginx } from './nginx-process.js';
import { compareSides, formatProveJson, formatProveTable, type ProveReport } from './report.js';
import type { CountingStub } from './stub.js';
import { startStubs } from './stubs.js';
import { readInputs } from './inputs.js';
import { localModules } from './sandbox-run.js';

export interface ProveIo extends CheckIo {
  env: NodeJS.ProcessEnv;
}

/** The run stopped early: a timeout, Ctrl-C or SIGTERM. */
class Stopped extends Error {}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
const STOPPED_BY: Partial<Record<NodeJS.Signals, string>> = { SIGINT: 'interrupted', SIGTERM: 'terminated (SIGTERM)' };

export async function runProve(options: ProveOptions, io: ProveIo): Promise<ExitCode> {
  const deadline = Date.now() + options.timeoutMs;
  const inputs = await readInputs(options, io);
  if (typeof inputs === 'string') {
    io.stderrLine(inputs);
    return EXIT_FAILURE;
  }
  const binary = findNginx(options.nginx, io.env.PATH);
  if (binary === undefined) {
    io.stderrLine(options.nginx ? `${options.nginx}: not an executable nginx binary` : 'no nginx found (not on PATH, not /usr/sbin/nginx): give one with --nginx PATH');
    return EXIT_FAILURE;
  }
  let nginx: RunningNginx | undefined;
  const started: CountingStub[] = [];
  let stop: (reason: string) => void = () => {};
  let isStopped = false;
  const stopped = new Promise<never>((_, reject) => {
    stop = (reason) => {
      isStopped = true;
      reject(new Stopped(reason));
    };
  });
  stopped.catch(() => {});
  const timer = setTimeout(() => stop(`timed out after ${options.timeoutMs / 1000} s (--timeout)`), Math.max(0, deadline - Date.now()));
  // Ctrl-C (SIGINT) and SIGTERM (a service manager, an editor closing) stop the run alike. Installed before the
  // prefix exists: without a listener either signal ends the process at once, which would leave the prefix behind.
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled ??= signal;
    stop(STOPPED_BY[signal] ?? 'interrupted');
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  // Honours TMPDIR (os.tmpdir()); private (mkdtemp makes it 0700).
  let prefix: string;
  try {
    prefix = mkdtempSync(path.join(tmpdir(), 'nginx-keepalive-prove-'));
  } catch (error) {
    clearTimeout(timer);
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    throw error;
  }
  let work: Promise<unknown> = Promise.resolve();
  try {
    // The run's certificate, in the private prefix (removed with it): what the sandbox's TLS settings name.
    const pem = generateCertificate();
    const files = { cert: path.join(prefix, 'tls', 'cert.pem'), key: path.join(prefix, 'tls', 'key.pem') };
    mkdirSync(path.dirname(files.cert), { mode: 0o700 });
    writeFileSync(files.cert, pem.cert, { mode: 0o600 });
    writeFileSync(files.key, pem.key, { mode: 0o600 });
    const stubs = await startStubs(pem, (stub) => started.push(stub));
    const context = {
      binary,
      modules: nginxModules(binary),
      stubs,
      certificate: { pem, files },
      requests: options.requests,
      concurrency: options.concurrency,
      deadline,
      track: (running: RunningNginx | undefined) => (nginx = running),
      stopped: () => isStopped,
      module: localModules(binary),
    };
    const sides = async (): Promise<[SideResult, SideResult]> => [
      await measureSide(inputs.before, path.join(prefix, 'before'), context),
      await measureSide(inputs.after, path.join(prefix, 'after'), context),
    ];
    const measuring = sides();
    work = measuring.catch(() => {});
    const [before, after] = await Promise.race([measuring, stopped]);
    const report: ProveReport = {
      nginx: { binary, version: nginxVersion(binary) ?? null },
      requests: options.requests,
      concurrency: options.concurrency,
      unsafeFixes: options.check.unsafeFixes,
      ...compareSides(before, after, options, io.cwd, inputs.remaining),
    };
    for (const note of before.notes) io.stderrLine(`note: ${note}`);
    io.stdout(options.format === 'json' ? formatProveJson(report) : formatProveTable(report));
    return report.locations.some((entry) => (entry.reuses === false && entry.noKeepalive === null) || entry.statusesChanged || entry.websocketBroken) ? EXIT_FINDINGS : EXIT_CLEAN;
  } catch (error) {
    if (error instanceof Stopped) {
      io.stderrLine(`prove ${error.message}; stopped nginx and removed ${displayPath(prefix, io.cwd)}`);
      return EXIT_FAILURE;
    }
    if (error instanceof SandboxRejected) {
      for (const line of error.message.split('\n')) io.stderrLine(line);
      return EXIT_FAILURE;
    }
    throw error;
  } finally {
    clearTimeout(timer);
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    isStopped = true;
    await (nginx as RunningNginx | undefined)?.stop();
    // The measurement notices the stop at its next step (nginx gone, its requests fail): wait for it to end, so
    // nothing it does lands after the cleanup.
    await work;
    await (nginx as RunningNginx | undefined)?.stop();
    for (const stub of started) await stub.close();
    rmSync(prefix, { recursive: true, force: true });
    // Once everything is cleaned up, end as the signal ends a process (the shell sees 130 for SIGINT, 143 for
    // SIGTERM), as whoever sent it asked: the listeners are off, so the default action applies.
    if (signalled !== undefined) process.kill(process.pid, signalled);
  }
}
