// A real VS Code for the e2e test: code-server 4.100.3 from the private prefix test/e2e/setup-code-server.sh
// fills, with a fresh user-data dir, extensions dir and XDG dirs per run, so nothing leaks between runs or into ~.
// It runs in its own session and process group (detached: setsid(2)): extension hosts and the language server
// outlive code-server's main process, so stopping means killing the whole group.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../support/nginx.js';

const setupScript = path.resolve(import.meta.dirname, '../setup-code-server.sh');

/** Installs code-server if needed (a no-op when cached) and returns the executable's path. */
export function ensureCodeServer(): string {
  const setup = spawnSync('bash', [setupScript], { encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`setup-code-server.sh failed:\n${setup.stderr}`);
  const lines = setup.stdout.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

export interface CodeServerDirs {
  userData: string;
  extensions: string;
  env: NodeJS.ProcessEnv;
}

/** Fresh per-run directories under `root`, and user settings that keep the screenshots free of onboarding UI. */
export function makeDirs(root: string, extraSettings: Record<string, unknown> = {}): CodeServerDirs {
  const dirs = { userData: path.join(root, 'user-data'), extensions: path.join(root, 'extensions') };
  const xdgConfig = path.join(root, 'xdg-config');
  const xdgData = path.join(root, 'xdg-data');
  // VS Code and its git extension make IPC sockets in XDG_RUNTIME_DIR or the temporary directory, and a SIGKILLed
  // code-server never removes them: both point under `root`, which the session deletes.
  const scratch = path.join(root, 'tmp');
  for (const dir of [path.join(dirs.userData, 'User'), dirs.extensions, xdgConfig, xdgData]) mkdirSync(dir, { recursive: true });
  mkdirSync(scratch, { mode: 0o700 });
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.colorTheme': 'Default Light Modern',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'editor.minimap.enabled': false,
    'editor.stickyScroll.enabled': false,
    // The browser build auto-saves after a delay by default; off (the desktop default), an edit leaves the editor
    // dirty and the test saves it: a save it can wait for, not a background one.
    'files.autoSave': 'off',
    'files.refactoring.autoSave': false,
    'chat.commandCenter.enabled': false,
    ...extraSettings,
  };
  writeFileSync(path.join(dirs.userData, 'User/settings.json'), JSON.stringify(settings, null, 2));
  return { ...dirs, env: { ...process.env, XDG_CONFIG_HOME: xdgConfig, XDG_DATA_HOME: xdgData, XDG_RUNTIME_DIR: scratch, TMPDIR: scratch } };
}

export function installExtension(bin: string, dirs: CodeServerDirs, vsix: string): string {
  const args = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix];
  const install = spawnSync(bin, args, { encoding: 'utf8', env: dirs.env });
  if (install.status !== 0 || !/successfully installed/.test(install.stdout)) {
    throw new Error(`installing ${vsix} failed:\n${install.stdout}${install.stderr}`);
  }
  return install.stdout;
}

export interface RunningCodeServer {
  url: string;
  /** Kills the whole process group (code-server, extension host, language server); safe to call twice. */
  stop(): void;
  log(): string;
}

/**
 * Starts code-server on a free loopback port and resolves once it reports that it listens. `workspace` is a folder or
 * a `.code-workspace` file; with `trust: false` workspace trust stays on, so an untrusted folder opens in Restricted
 * Mode (the user settings must also turn `security.workspace.trust.enabled` on).
 */
export async function startCodeServer(
  bin: string,
  dirs: CodeServerDirs,
  workspace: string,
  { trust = true }: { trust?: boolean } = {},
): Promise<RunningCodeServer> {
  const port = await freePort();
  const args = [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(trust ? ['--disable-workspace-trust'] : []),
    workspace,
  ];
  const child = spawn(bin, args, { env: dirs.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let stopped = false;
  const stop = (): void => {
    if (stopped || child.pid === undefined) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  };
  // If the test runner dies first, the group must still go.
  process.once('exit', stop);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(`HTTP server listening on http://127.0.0.1:${port}/`)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}) before listening:\n${output}`)));
  });
  const query = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
  const url = `http://127.0.0.1:${port}/?${query}=${encodeURIComponent(workspace)}`;
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  if (!health.ok) throw new Error(`code-server /healthz answered ${health.status}`);
  return { url, stop, log: () => output };
}
