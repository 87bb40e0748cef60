// What the extension tells the user besides squiggles, in a real VS Code (code-server 4.100.3 in headless Chromium):
// the code lens above the Dokku example's upstream (and how a quick fix changes it, and where a click goes), the
// language status item (the nginx version from the workspace's Dockerfile, the files checked), and "Show rule
// documentation" opening a rule's page as a Markdown preview. Screenshots for docs/editors.md land in docs/images/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, openEditorSession, repoRoot, type EditorSession } from './support/session.js';
import { chooseQuickFix, goToLine, openQuickFixMenu, quickOpen, showProblems, waitForProblemGone } from './support/workbench.js';

const SIGIL = 'nginx.conf.sigil';
const TIMEOUT = { timeout: 60_000 };

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({
    files: {
      [SIGIL]: readFileSync(path.join(repoRoot, 'examples/dokku', SIGIL), 'utf8'),
      // The version the status item reports, and the lens's verdicts assume: before 1.29.7.
      Dockerfile: 'FROM nginx:1.27.3-alpine\n',
    },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

/** The code lens of the active editor whose text is `title`, once it shows. */
function lens(title: string) {
  return page.locator('.editor-instance .monaco-editor .codelens-decoration', { hasText: title });
}

describe('feedback in a real VS Code', () => {
  it('shows a code lens above the upstream, changed by a quick fix, whose click reveals the pass', async () => {
    await quickOpen(page, SIGIL);
    await goToLine(page, 145);
    // Before nginx 1.29.7 (the Dockerfile's 1.27.3): no keepalive, and the one location forwards the client's Connection.
    const before = 'keepalive off · 1 pass needs Connection ""';
    await lens(before).waitFor(TIMEOUT);
    await page.screenshot({ path: path.join(images, 'vscode-code-lens.png') });

    await showProblems(page);
    const titles = await openQuickFixMenu(page, 'upstream-keepalive');
    await chooseQuickFix(page, titles[0]!);
    await waitForProblemGone(page, 'upstream-keepalive');
    const after = 'keepalive ✓ · 1 pass needs Connection ""';
    await lens(after).waitFor(TIMEOUT);
    expect(await lens(before).count()).toBe(0);

    // The click goes to the pass that needs the change: proxy_pass on line 83, selected (the cursor at its end).
    await lens(after).locator('a', { hasText: after }).click();
    await page.locator('.statusbar-item', { hasText: /^Ln 83, Col \d+ \(\d+ selected\)/ }).waitFor(TIMEOUT);
  });

  it('shows the nginx version, where it came from and the files checked in the language status', async () => {
    await quickOpen(page, SIGIL);
    // The `{}` beside "NGINX" in the status bar; its hover lists the language status items.
    const languageStatus = page.locator('[id="status.languageStatus"]');
    await languageStatus.waitFor(TIMEOUT);
    await languageStatus.hover();
    const item = page.locator('.hover-language-status', { hasText: 'nginx 1.27.3' });
    await item.waitFor(TIMEOUT);
    // The item's text, then its detail. The sigil's two includes are templated (not followed): the file itself is all
    // that is checked.
    const shown = await item.locator('.element .left').evaluate((left) =>
      [...left.childNodes].map((node) => ((node as Element).classList?.contains('separator') ? ' | ' : node.textContent)).join(''),
    );
    expect(shown).toBe('nginx 1.27.3 | from Dockerfile:1 · 1 file checked');
    await page.screenshot({ path: path.join(images, 'vscode-status.png') });
    await page.keyboard.press('Escape');
  });

  it('"Show rule documentation" picks a rule and opens its page as a Markdown preview', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
    await page.keyboard.type('nginx-keepalive: Show rule documentation');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Show rule documentation' }).waitFor(TIMEOUT);
    await page.keyboard.press('Enter');
    // The rules' quick pick, each with what it reports.
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'nginx-keepalive: rule documentation' }).waitFor(TIMEOUT);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'connection-header-passthrough' }).waitFor(TIMEOUT);
    await page.keyboard.type('upstream-keepalive');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'upstream-keepalive' }).waitFor(TIMEOUT);
    await page.keyboard.press('Enter');

    await page.locator('.tab.active', { hasText: 'Preview upstream-keepalive.md' }).waitFor(TIMEOUT);
    // The preview renders in a webview's frame: its first heading is the page's.
    const heading = readFileSync(path.join(repoRoot, 'docs/rules/upstream-keepalive.md'), 'utf8').match(/^# (.+)$/m)![1]!;
    await expect.poll(async () => {
      for (const frame of page.frames()) {
        const found = await frame.locator('h1').filter({ hasText: heading }).count().catch(() => 0);
        if (found > 0) return true;
      }
      return false;
    }, { timeout: 60_000 }).toBe(true);
  });
});
