// The live tests' common steps: a fixture written to a temporary directory with its ports filled in, the real CLI
// run on it (findings as JSON, then --fix), real nginx started in front of a counting upstream, a few hundred
// requests from clients that send `Connection: close`, and the upstream's count of connections and requests.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rules } from '../../server/src/rules/registry.js';
import { CLI, type CliResult } from '../cli/helpers.js';
import { sendLoad } from '../support/live-clients.js';
import { UPSTREAM_BODY } from '../support/live-upstream.js';
import { startNginx, type NginxPrefix, type RunningNginx } from '../support/nginx.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** nginx's worker count in every live config: the after-fix bound is WORKERS × keepalive. */
export const WORKERS = 1;
export const REQUESTS = 300;
/**
 * Requests in flight at once. With at most C in flight a worker never holds more than C upstream connections, and
 * with C ≤ keepalive its cache never evicts one, so after the fix nginx opens at most WORKERS × C ≤ WORKERS ×
 * keepalive connections in all.
 */
export const CONCURRENCY = 8;

/** Rules that are not about connection reuse. */
const GENERAL_RULES = new Set(['syntax', 'directive', 'include', 'lone-carriage-return', 'unused-suppression']);
/** The rules whose findings mean connections are not reused: every other rule of the registry. */
export const REUSE_RULES: readonly string[] = rules.map((rule) => rule.meta.id).filter((id) => !GENERAL_RULES.has(id));

/** Anything that counts the connections nginx opens to it and the requests it answers. */
export interface CountingPeer {
  tally(): { connections: number; requests: number };
  reset(): void;
}

export interface CliFinding {
  ruleId: string;
  severity: number;
  line: number;
}

/** A temporary directory for one test file's copies; remove() at the end. */
export function makeWorkDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-live-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `text` with each `__NAME__` placeholder replaced by `values[NAME]` to `dir/file`; returns the path. */
export function writeWithPlaceholders(
  dir: string,
  file: string,
  text: string,
  values: Readonly<Record<string, string | number>>,
): string {
  const filled = text.replace(/__([A-Z_]+?)__/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`no value for placeholder ${whole} in ${file}`);
    return String(values[name]);
  });
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, file);
  writeFileSync(target, filled);
  return target;
}

/**
 * Runs the built CLI (dist/cli.js) in `cwd` without blocking, so a test file can run it on several fixtures at once.
 * JSON output has no colour, so the caller's colour settings do not matter.
 */
export function runCliAsync(cwd: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `check --format json <dir>`: every finding, sorted; throws on a usage error (exit status 2). */
export async function cliFindings(dir: string): Promise<CliFinding[]> {
  const result = await runCliAsync(dir, ['check', '--format', 'json', '.']);
  if (result.status === 2) throw new Error(`check failed:\n${result.stdout}${result.stderr}`);
  const files = JSON.parse(result.stdout) as { messages: CliFinding[] }[];
  return files
    .flatMap((file) => file.messages.map(({ ruleId, severity, line }) => ({ ruleId, severity, line })))
    .sort((a, b) => a.line - b.line || a.ruleId.localeCompare(b.ruleId));
}

/** `check --fix <dir>`; throws unless the CLI exits 0 (fixed, nothing left at warning or error level). */
export async function cliFix(dir: string): Promise<void> {
  const result = await runCliAsync(dir, ['check', '--fix', '.']);
  if (result.status !== 0) throw new Error(`check --fix exited ${result.status}:\n${result.stdout}${result.stderr}`);
}

/** The `keepalive N` values in a config, in order. */
export function keepaliveValues(text: string): number[] {
  return [...text.matchAll(/^\s*keepalive\s+(\d+)\s*;/gm)].map((m) => Number(m[1]));
}

/** A main config for the live nginx: WORKERS workers, temp files in the prefix, `files` included in http{}. */
export function liveMainConfig(prefix: NginxPrefix, files: readonly string[]): string {
  return [
    `worker_processes ${WORKERS};`,
    'events { worker_connections 1024; }',
    'http {',
    `    ${prefix.httpTempPaths}`,
    '    access_log off;',
    ...files.map((file) => `    include ${file};`),
    '}',
    '',
  ].join('\n');
}

export interface Measurement {
  requests: number;
  connections: number;
  upstreamRequests: number;
}

/** nginx instances started and not yet stopped: a test that times out never reaches its `finally`. */
const running = new Set<RunningNginx>();

/**
 * Stops any nginx a test left running (call from afterAll, which runs also after a timed-out test). SIGTERM is nginx's
 * fast shutdown: a graceful one would wait for the request that hung.
 */
export async function stopLeftoverNginx(): Promise<void> {
  for (const nginx of running) nginx.process.kill('SIGTERM');
  await Promise.all([...running].map((nginx) => nginx.stop()));
  running.clear();
}

/** Starts nginx with `files` included in http{}, waits until `port` accepts connections, runs `use`, stops nginx. */
export async function withNginx<T>(
  files: readonly string[],
  port: number,
  use: (errorLog: () => string) => Promise<T>,
): Promise<T> {
  const nginx = await startNginx((prefix) => liveMainConfig(prefix, files), port);
  running.add(nginx);
  try {
    return await use(() => nginx.errorLog());
  } finally {
    running.delete(nginx);
    await nginx.stop();
  }
}

/**
 * Sends REQUESTS requests to nginx (running with `files`, listening on `port`) and returns what `peer` saw meanwhile;
 * `after` runs while nginx still runs (more checks against it, more of the peer's counts). nginx is stopped in every
 * case.
 */
export function measureThroughNginx(
  files: readonly string[],
  port: number,
  peer: CountingPeer,
  after: () => Promise<void> | void = () => {},
): Promise<Measurement> {
  return withNginx(files, port, async (errorLog) => {
    peer.reset();
    const load = await sendLoad(port, REQUESTS, CONCURRENCY, UPSTREAM_BODY);
    const seen = peer.tally();
    if (load.wrong.length > 0) {
      const example = `${load.wrong.length} of ${REQUESTS} requests got a wrong reply, e.g. ${load.wrong[0]}`;
      throw new Error(`${example}\n${errorLog()}`);
    }
    await after();
    return { requests: load.requests, connections: seen.connections, upstreamRequests: seen.requests };
  });
}

export function readFixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}
