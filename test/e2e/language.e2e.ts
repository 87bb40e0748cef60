// Completion and directive hover in a real VS Code (code-server 4.100.3 in headless Chromium): Ctrl+Space inside a
// `location` lists the directives nginx allows there (proxy_pass, not worker_processes) with their documentation,
// a chosen directive is inserted as a snippet, `http://` offers the upstreams, and hovering `sendfile` shows its
// description and nginx.org link. Screenshots for docs/editors.md land in docs/images/.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, openEditorSession, type EditorSession } from './support/session.js';
import { goToLine, quickOpen } from './support/workbench.js';

const CONF = 'nginx.conf';
const TEXT = `events {}
http {
    sendfile on;
    upstream app {
        server 127.0.0.1:3000;
        keepalive 16;
    }
    server {
        listen 80;
        location / {
            proxy_http_version 1.1;
        }
    }
}
`;
const TIMEOUT = { timeout: 60_000 };

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({
    files: { [CONF]: TEXT },
    // Suggestions only when asked (Ctrl+Space) or after a trigger character, so each list is the one the test asks.
    userSettings: { 'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' } },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

const suggestion = (label: string) => page.locator('.suggest-widget.visible .monaco-list-row', { hasText: label });

/** The text of the rendered editor line containing `needle`, spaces normalised. */
async function lineWith(needle: string): Promise<string> {
  const handle = await page.waitForFunction((needle) => {
    const lines = [...document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')];
    const text = lines.map((line) => line.textContent?.replace(/\u00a0/g, ' ') ?? '').find((line) => line.includes(needle));
    return text ?? false;
  }, needle, TIMEOUT);
  return (await handle.jsonValue()) as string;
}

describe('completion and hover in a real VS Code', () => {
  it('suggests the directives of a location on Ctrl+Space, documented, and inserts one as a snippet', async () => {
    await quickOpen(page, CONF);
    await goToLine(page, 11);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('proxy_p');
    await page.keyboard.press('Control+Space');
    await suggestion('proxy_pass').first().waitFor(TIMEOUT);
    // A second Ctrl+Space opens the side panel with the focused item's documentation (completionItem/resolve).
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-details-container .suggest-details', { hasText: 'nginx.org' }).waitFor(TIMEOUT);
    await page.screenshot({ path: path.join(images, 'vscode-completion.png') });
    // The exact prefix match comes first, before proxy_pass_header & co.; no main or server directive is listed.
    const rows = await page.locator('.suggest-widget.visible .monaco-list-row .label-name').allTextContents();
    expect(rows[0]).toBe('proxy_pass');
    expect(rows).not.toContain('listen');
    await page.keyboard.press('Enter');
    // Polled: the editor renders the accepted item a moment after the key press.
    await expect.poll(async () => (await lineWith('proxy_pass')).trim(), TIMEOUT).toBe('proxy_pass ;');

    // The cursor sits before the `;`: `/` of http:// brings the upstream names.
    await page.keyboard.type('http://');
    await suggestion('app').first().waitFor(TIMEOUT);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await lineWith('proxy_pass')).trim(), TIMEOUT).toBe('proxy_pass http://app;');
  });

  it('has no main-context directive in a location', async () => {
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('worker_proc');
    await page.keyboard.press('Control+Space');
    // Nothing matches: VS Code says so instead of listing worker_processes.
    await page.locator('.suggest-widget .message', { hasText: 'No suggestions.' }).waitFor(TIMEOUT);
    expect(await suggestion('worker_processes').count()).toBe(0);
    await page.keyboard.press('Escape');
    // Delete the line again (Ctrl+Shift+K), so the next screenshot shows a clean file.
    await page.keyboard.press('Control+Shift+K');
    await page.waitForFunction(() => !document.querySelector('.editor-instance .view-lines')?.textContent?.includes('worker_proc'), undefined, TIMEOUT);
  });

  it('hovers sendfile with its description and nginx.org link', async () => {
    const name = page.locator('.editor-instance .monaco-editor .view-lines .view-line span', { hasText: /^sendfile$/ }).first();
    await name.waitFor(TIMEOUT);
    const box = (await name.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 60);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    const hover = page.locator('.monaco-hover', { hasText: 'Enables or disables the use of sendfile.' });
    await hover.waitFor(TIMEOUT);
    const link = hover.locator('a', { hasText: 'sendfile on nginx.org' });
    expect(await link.getAttribute('data-href')).toBe('https://nginx.org/en/docs/http/ngx_http_core_module.html#sendfile');
    // The hover fades in: the screenshot waits until it and its containers are opaque.
    await hover.evaluate(
      (element) =>
        new Promise<void>((resolve) => {
          const opaque = () => {
            for (let node: Element | null = element; node; node = node.parentElement) if (getComputedStyle(node).opacity !== '1') return false;
            return true;
          };
          const check = () => (opaque() ? resolve() : requestAnimationFrame(check));
          check();
        }),
    );
    await page.screenshot({ path: path.join(images, 'vscode-directive-hover.png') });
  });
});
