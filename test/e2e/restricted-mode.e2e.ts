// Restricted Mode in code-server: workspace trust on and the folder not trusted. The extension runs there
// (capabilities.untrustedWorkspaces "limited"): nginx.conf is NGINX, its problems show and a quick fix applies. The
// one setting that could widen what the checker reads, nginxKeepalive.pathMap, is restricted: the workspace's
// .vscode/settings.json maps /etc/nginx to a directory outside the workspace, and Restricted Mode ignores it, so the
// include through it is reported as outside the checked paths instead of being read. "Prove connection reuse", which
// runs nginx, is not in the command palette there.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditorSession, type EditorSession } from './support/session.js';
import { chooseQuickFix, quickOpen, saveActiveEditor, showProblems, waitForProblems } from './support/workbench.js';

/** Includes /etc/nginx/conf.d/*.conf (line 3); its upstream has no keepalive (line 4), and no fix while that include is unread. */
const MAIN =
  'events {}\nhttp {\n  include /etc/nginx/conf.d/*.conf;\n  upstream app {\n    server 127.0.0.1:3000;\n  }\n' +
  '  server {\n    listen 80;\n    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n';
/** A site on its own: upstream-keepalive on line 1, fixable. */
const API = 'upstream api {\n    server 127.0.0.1:9000;\n}\nserver {\n    listen 8080;\n    location / {\n        proxy_pass http://api;\n    }\n}\n';

const TIMEOUT = { timeout: 60_000 };

let session: EditorSession;
let page: Page;
/** Outside the workspace: what the workspace's pathMap would let the checker read. */
let outside: string;

beforeAll(async () => {
  outside = mkdtempSync(path.join(os.tmpdir(), 'nk-outside-'));
  mkdirSync(path.join(outside, 'conf.d'));
  writeFileSync(path.join(outside, 'conf.d/api.conf'), 'upstream other {\n  server 127.0.0.1:9001;\n  keepalive 16;\n}\n');
  session = await openEditorSession({
    restricted: true,
    files: {
      'nginx.conf': MAIN,
      'api.nginx': API,
      '.vscode/settings.json': JSON.stringify({ 'nginxKeepalive.pathMap': { '/etc/nginx': outside } }),
    },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

describe('Restricted Mode in code-server', () => {
  it('opens untrusted, and says so', async () => {
    // VS Code asks at start-up whether to trust the folder; the answer here is no.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor(TIMEOUT);
    await dialog.getByRole('button', { name: /No, I don't trust/ }).click();
    await dialog.waitFor({ ...TIMEOUT, state: 'detached' });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor(TIMEOUT);
  });

  it('shows nginx.conf as NGINX with its problems, ignoring the workspace pathMap', async () => {
    await quickOpen(page, 'nginx.conf');
    await page.locator('[id="status.editor.mode"]', { hasText: /^\s*NGINX\s*$/ }).waitFor(TIMEOUT);
    await showProblems(page);
    // include@3: /etc/nginx is not mapped to the outside directory (trusted, the pathMap would map it and the include
    // would be read: no include row). upstream-keepalive@1 is api.nginx's (workspace diagnostics), @4 nginx.conf's.
    const problems = await waitForProblems(page, ['include@3', 'upstream-keepalive@4', 'upstream-keepalive@1']);
    const include = problems.find((problem) => problem.code === 'include');
    expect(include?.message).toContain('is outside the checked paths');
    expect(problems.every((problem) => problem.source === 'nginx-keepalive')).toBe(true);
  });

  it('applies a quick fix', async () => {
    await quickOpen(page, 'api.nginx');
    await showProblems(page);
    // The Ctrl+. menu on api.nginx's row (nginx.conf's upstream has one too, without a fix while its include is unread).
    const row = page.locator('.markers-panel .monaco-list-row[aria-level="2"]', { hasText: 'upstream-keepalive' });
    await row.filter({ hasText: '[Ln 1,' }).click();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active[data-resource-name="api.nginx"]').waitFor(TIMEOUT);
    await page.locator('.monaco-editor.focused').waitFor(TIMEOUT);
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget .monaco-list-row.action').first().waitFor(TIMEOUT);
    const titles = await page.$$eval('.action-widget .monaco-list-row.action', (rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
    const preferred = titles[0] ?? '';
    expect(preferred).not.toMatch(/^Ignore /);
    await chooseQuickFix(page, preferred);
    await page.locator('.tab.active.dirty').waitFor(TIMEOUT);
    await saveActiveEditor(page);
    await waitForProblems(page, ['include@3', 'upstream-keepalive@4']);
    expect(readFileSync(path.join(session.workspace, 'api.nginx'), 'utf8')).toContain('    keepalive 16;\n');
  });

  it('does not offer "Prove connection reuse" in the command palette', async () => {
    await quickOpen(page, 'api.nginx');
    await page.keyboard.press('Control+Shift+P');
    await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
    await page.keyboard.type('nginx-keepalive: ');
    // The extension's other commands are listed (it runs, activated), this one is not.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'nginx-keepalive: Show output' }).waitFor(TIMEOUT);
    const titles = await page.$$eval('.quick-input-list .monaco-list-row', (rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
    expect(titles.some((title) => title.includes('Restart server'))).toBe(true);
    expect(titles.filter((title) => title.includes('Prove connection reuse'))).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
