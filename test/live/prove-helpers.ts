// The helpers of prove's live tests (prove.test.ts, prove-protocols.test.ts): a project directory with a TMPDIR of its
// own (what is left in it is what prove left), a live fixture with unused ports, the CLI run as a child process.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { CLI, type CliResult } from '../cli/helpers.js';
import { FIXTURES } from './harness.js';

export const REQUESTS = 60;
export const CONCURRENCY = 4;
export const NGINX = '/usr/sbin/nginx';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A project directory with `files`, and an empty TMPDIR of its own. */
export function project(files: Record<string, string>): { dir: string; tmp: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'nk-prove-test-'));
  roots.push(root);
  const dir = path.join(root, 'project');
  const tmp = path.join(root, 'tmp');
  mkdirSync(tmp);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, tmp };
}

/** A live fixture with its placeholders filled by ports nobody listens on: prove must rewrite them all. */
export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8').replaceAll('__LISTEN_PORT__', '80').replaceAll('__UPSTREAM_PORT__', '8080');
}

export function prove(where: { dir: string; tmp: string }, args: string[], onSpawn?: (pid: number) => void, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'prove', ...args], {
      cwd: where.dir,
      env: { ...process.env, TMPDIR: where.tmp },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('spawn', () => onSpawn?.(child.pid!));
    // Ended by a signal: the shell's status for it (128 + its number; SIGINT is 2, SIGTERM 15).
    child.once('close', (status, signal) => resolve({ status: status ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : -1), stdout, stderr }));
  });
}

export const LOAD = ['--requests', String(REQUESTS), '--concurrency', String(CONCURRENCY), '--nginx', NGINX];

export interface JsonLocation {
  file: string;
  line: number;
  location: string;
  pass: string;
  request: { method: string; scheme: string; protocol: string; host: string; path: string } | null;
  before: { connections: number; requests: number; statuses: Record<string, number> } | null;
  after: { connections: number; requests: number; statuses: Record<string, number> } | null;
  skipped: string | null;
  websocket: { before: number; after: number } | null;
  reuses: boolean | null;
  noKeepalive: string | null;
  why: string[];
}

export async function proveJson(where: { dir: string; tmp: string }, extra: string[] = []): Promise<{ result: CliResult; locations: JsonLocation[] }> {
  const result = await prove(where, [...LOAD, '--format', 'json', ...extra, '.']);
  if (result.status === 2) throw new Error(`prove failed:\n${result.stdout}${result.stderr}`);
  return { result, locations: (JSON.parse(result.stdout) as { locations: JsonLocation[] }).locations };
}

