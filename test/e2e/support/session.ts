// One editor session for an e2e file: the VSIX packaged from this checkout, installed into a fresh code-server, a
// workspace (a folder or a multi-root .code-workspace) written from the test's files, and a headless Chromium page
// on the workbench. Each *.e2e.ts file opens its own session in beforeAll and closes it in afterAll.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureCodeServer, installExtension, makeDirs, startCodeServer, type RunningCodeServer } from './code-server.js';
import { waitForWorkbench } from './workbench.js';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const images = path.join(repoRoot, 'docs/images');
export const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  publisher: string;
};

export interface SessionOptions {
  /** Files of the workspace, path relative to the workspace directory → text. */
  files: Record<string, string>;
  /**
   * Multi-root: the folders (relative to the workspace directory) of a `.code-workspace` file that is opened instead
   * of the directory itself.
   */
  folders?: string[];
  /** User settings added to the quiet defaults of makeDirs. */
  userSettings?: Record<string, unknown>;
  /** Opens the workspace in Restricted Mode (workspace trust on, the folder not trusted). */
  restricted?: boolean;
  /** Environment variables for code-server and what it starts (the extension host, the CLI): e.g. a TMPDIR of the test's own. */
  env?: Record<string, string>;
  /** The browser window; 1280×800 by default (the screenshots' size). */
  viewport?: { width: number; height: number };
}

export interface EditorSession {
  page: Page;
  /** The workspace directory (the folder, or the directory holding the folders and the .code-workspace file). */
  workspace: string;
  root: string;
  codeServer: RunningCodeServer;
  close(): Promise<void>;
}

function packageVsix(out: string): void {
  const script = path.join(repoRoot, 'scripts/package-vsix.mjs');
  const pack = spawnSync(process.execPath, [script, '--out', out], { cwd: repoRoot, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm run package failed:\n${pack.stdout}${pack.stderr}`);
}

function writeFiles(workspace: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(workspace, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

export async function openEditorSession(options: SessionOptions): Promise<EditorSession> {
  const bin = ensureCodeServer();
  const root = mkdtempSync(path.join(os.tmpdir(), 'nk-code-server-'));
  let codeServer: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    codeServer?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const vsix = path.join(root, `${manifest.name}.vsix`);
    packageVsix(vsix);
    const workspace = path.join(root, 'workspace');
    mkdirSync(workspace);
    writeFiles(workspace, options.files);
    let target = workspace;
    if (options.folders) {
      target = path.join(workspace, 'test.code-workspace');
      writeFileSync(target, JSON.stringify({ folders: options.folders.map((folder) => ({ path: folder })) }, null, 2));
    }
    const made = makeDirs(root, { ...options.userSettings, ...(options.restricted ? { 'security.workspace.trust.enabled': true } : {}) });
    const dirs = { ...made, env: { ...made.env, ...options.env } };
    installExtension(bin, dirs, vsix);
    const installed = path.join(dirs.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    for (const file of ['dist/extension.cjs', 'dist/package.json', 'dist/server.js', 'dist/server-main.cjs', 'dist/nginx-docs.json', 'dist/tree-sitter-nginx.wasm', 'dist/web-tree-sitter.wasm']) {
      if (!existsSync(path.join(installed, file))) throw new Error(`the installed extension lacks ${file}`);
    }
    codeServer = await startCodeServer(bin, dirs, target, { trust: !options.restricted });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    mkdirSync(images, { recursive: true });
    await waitForWorkbench(page, codeServer.url);
    return { page, workspace, root, codeServer, close };
  } catch (error) {
    await close();
    throw error;
  }
}
