// Runs the bundled CLI's `prove --format json` for "nginx-keepalive: Prove connection reuse" (prove-command.ts): the
// one place the extension starts a program (test/robustness/security.test.ts allows child_process here only). The
// client measures nothing itself: it runs dist/cli.js with the node VS Code runs the language server with, and hands
// back what the CLI printed. No `vscode` import, so the tests run it against the real CLI and real nginx.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ProveTarget {
  /** The directory prove runs in: paths, `--path-map` targets and the settings file are looked up from it. */
  cwd: string;
  /** `['.']` (the workspace folder's discovery, as `check .`), a file's name, or `['-']` with `input`. */
  paths: string[];
  /** The text given on stdin, for `-` (an unsaved document). */
  input?: string;
}

export interface ProveSettings {
  /** `prove --nginx`; empty: the CLI's own choice (nginx on PATH, then /usr/sbin/nginx). */
  nginxPath: string;
  /** nginxKeepalive.pathMap: absolute include prefix → directory (relative to `cwd`), passed as `--path-map`. */
  pathMap: Record<string, string>;
}

export interface ProveExit {
  /** The CLI's exit status; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The user cancelled: prove was sent SIGINT (it stops nginx and its stubs and removes its prefix first). */
  cancelled: boolean;
}

/** A workspace folder: the discovery `check .` run in it makes, which is how the language server reads the folder. */
export function folderTarget(folder: string): ProveTarget {
  return { cwd: folder, paths: ['.'] };
}

/** A file outside every folder, with its includes (read from its own directory, as `check <file>` reads them). */
export function fileTarget(file: string): ProveTarget {
  return { cwd: path.dirname(file), paths: [path.basename(file)] };
}

/** A document not on disk, on stdin; run in `folder` (settings, includes) when there is one. */
export function textTarget(text: string, folder: string | undefined): ProveTarget {
  return { cwd: folder ?? tmpdir(), paths: ['-'], input: text };
}

/** Whether prove reads `file` (absolute) from disk for this target: the file itself, or any file under the folder. */
export function readsFromDisk(target: ProveTarget, file: string): boolean {
  if (target.input !== undefined) return false;
  return target.paths[0] === '.' ? file.startsWith(target.cwd + path.sep) : file === path.join(target.cwd, target.paths[0] ?? '');
}

/** More than any report prints (a location is about 600 bytes of JSON); past it the run is stopped. */
const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;

/** The command line after `node cli.js`. */
export function proveArguments(target: ProveTarget, settings: ProveSettings): string[] {
  const args = ['prove', '--format', 'json'];
  if (settings.nginxPath.trim() !== '') args.push('--nginx', settings.nginxPath.trim());
  for (const [from, to] of Object.entries(settings.pathMap)) {
    if (typeof to === 'string' && to !== '') args.push('--path-map', `${from}=${to}`);
  }
  // `--` so that a file named like an option is still a path.
  return [...args, '--', ...target.paths];
}

/**
 * Runs `node cli prove …`. `node` is the extension host's executable (process.execPath), which in VS Code is
 * Electron: ELECTRON_RUN_AS_NODE makes it the node it bundles, as the language client does when it forks the server.
 * Aborting `signal` sends SIGINT, prove's Ctrl-C; the promise resolves when the CLI has exited (after its cleanup).
 */
export function runProveCli(
  node: string,
  cli: string,
  target: ProveTarget,
  settings: ProveSettings,
  options: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
): Promise<ProveExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...proveArguments(target, settings)], {
      cwd: target.cwd,
      env: { ...(options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: [target.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    let cancelled = false;
    let interrupted = false;
    // Once: a second SIGINT would meet prove's default action in the middle of its cleanup.
    const sigint = (): void => {
      if (interrupted) return;
      interrupted = true;
      child.kill('SIGINT');
    };
    const interrupt = (): void => {
      cancelled = true;
      sigint();
    };
    const collect = (append: (text: string) => void) => (chunk: Buffer) => {
      append(chunk.toString('utf8'));
      if (stdout.length + stderr.length > MAX_OUTPUT_CHARS) sigint();
    };
    child.stdout!.on('data', collect((text) => (stdout += text)));
    child.stderr!.on('data', collect((text) => (stderr += text)));
    if (target.input !== undefined) {
      // prove may refuse before reading stdin (no nginx): a closed pipe is not an error of ours.
      child.stdin!.on('error', () => {});
      child.stdin!.end(target.input);
    }
    if (options.signal?.aborted) interrupt();
    options.signal?.addEventListener('abort', interrupt, { once: true });
    child.once('error', (error) => {
      options.signal?.removeEventListener('abort', interrupt);
      reject(error);
    });
    child.once('close', (code, signal) => {
      options.signal?.removeEventListener('abort', interrupt);
      resolve({ code, signal, stdout, stderr, cancelled });
    });
  });
}
