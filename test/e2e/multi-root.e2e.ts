// A two-folder workspace (a .code-workspace with site-a and site-b) in code-server: each folder's own
// .vscode/settings.json (rule severities) and .nginx-keepalive.json (keepalive N) apply to its files, problems are
// listed for files never opened (workspace diagnostics), and "Fix all keepalive problems in workspace" fixes each
// folder with its own settings.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditorSession, type EditorSession } from './support/session.js';
import { runCommand, showProblems } from './support/workbench.js';

const MAIN =
  'events {}\nhttp {\n  upstream app {\n    server 127.0.0.1:8080;\n  }\n  server {\n    listen 80;\n' +
  '    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n';
const API = 'upstream api {\n  server 127.0.0.1:9000;\n}\nserver {\n  listen 8080;\n  location /api/ {\n    proxy_pass http://api;\n  }\n}\n';

const folderSettings = (severity: string) => JSON.stringify({ 'nginxKeepalive.rules': { 'upstream-keepalive': severity } });

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({
    folders: ['site-a', 'site-b'],
    files: {
      // site-a: upstream-keepalive is an error, and its fixes insert keepalive 8; api.nginx is never opened.
      'site-a/.vscode/settings.json': folderSettings('error'),
      'site-a/.nginx-keepalive.json': JSON.stringify({ keepaliveConnections: 8 }),
      'site-a/nginx.conf': MAIN,
      'site-a/api.nginx': API,
      // site-b: the same config, upstream-keepalive only a note, keepalive 32.
      'site-b/.vscode/settings.json': folderSettings('info'),
      'site-b/.nginx-keepalive.json': JSON.stringify({ keepaliveConnections: 32 }),
      'site-b/nginx.conf': MAIN,
    },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

/**
 * Waits until the Problems panel lists exactly these rows, each "folder/file code@line severity" (the file header's
 * path relative to the workspace directory, then the marker), in any order.
 */
async function waitForRows(expected: string[]): Promise<void> {
  const want = [...expected].sort();
  await page.waitForFunction(
    ({ want, workspace }) => {
      let file = '';
      const seen: string[] = [];
      for (const row of document.querySelectorAll('.markers-panel .monaco-list-row')) {
        const text = (selector: string) => row.querySelector(selector)?.textContent?.trim() ?? '';
        const level = row.getAttribute('aria-level');
        if (level === '1') {
          file = (row.querySelector('.monaco-icon-label')?.getAttribute('aria-label') ?? '').replace(`${workspace}/`, '');
          continue;
        }
        // Level 3: a problem's related information (its detail), not a problem.
        if (level !== '2') continue;
        const line = /\[Ln (\d+),/.exec(text('.marker-line'))?.[1];
        const icon = row.querySelector('.marker-icon')?.classList;
        const severity = ['error', 'warning', 'info'].find((name) => icon?.contains(name)) ?? '';
        seen.push(`${file} ${text('.marker-code')}@${line} ${severity}`);
      }
      return JSON.stringify(seen.sort()) === JSON.stringify(want);
    },
    { want, workspace: session.workspace },
    { timeout: 90_000 },
  );
}

describe('a two-folder workspace', () => {
  it("lists every file's problems, opened or not, each with its folder's severities", async () => {
    await showProblems(page);
    // Nothing is open: every row comes from workspace diagnostics.
    await waitForRows([
      'site-a/api.nginx upstream-keepalive@1 error',
      'site-a/nginx.conf upstream-keepalive@3 error',
      'site-b/nginx.conf upstream-keepalive@3 info',
    ]);
  });

  it('keeps the same rows, not doubled, once a file is open (its diagnostics then come from the editor text)', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').waitFor();
    await page.keyboard.type('site-b/nginx.conf');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'site-b' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active[data-resource-name="nginx.conf"]').waitFor();
    await page.locator('.monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# edited\n');
    await page.locator('.tab.active.dirty').waitFor();
    await waitForRows([
      'site-a/api.nginx upstream-keepalive@1 error',
      'site-a/nginx.conf upstream-keepalive@3 error',
      'site-b/nginx.conf upstream-keepalive@3 info',
    ]);
  });

  it("fixes each folder with its own keepalive N, and leaves both folders clean on disk", async () => {
    await runCommand(page, 'nginx-keepalive: Fix all keepalive problems in workspace');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'nginx-keepalive: fixed 3 problems in 3 files' });
    await toast.waitFor({ timeout: 60_000 });
    await waitForRows([]);
    await toast.getByRole('button', { name: 'Save all' }).click();
    const read = (relative: string) => readFileSync(path.join(session.workspace, relative), 'utf8');
    // The edited files are saved one by one: wait for the last to reach the disk.
    const saved = { timeout: 30_000 };
    await expect.poll(() => read('site-a/nginx.conf'), saved).toContain('    keepalive 8;\n');
    await expect.poll(() => read('site-a/api.nginx'), saved).toContain('  keepalive 8;\n');
    await expect.poll(() => read('site-b/nginx.conf'), saved).toContain('    keepalive 32;\n');
    for (const file of ['site-a/nginx.conf', 'site-a/api.nginx', 'site-b/nginx.conf']) {
      expect(read(file)).toContain('proxy_http_version 1.1;');
    }
  });
});
