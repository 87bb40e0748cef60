// "nginx-keepalive: Prove connection reuse" in a real VS Code (code-server 4.100.3 in headless Chromium): from the
// command palette, on a workspace whose upstream has no keepalive, it runs the bundled CLI's prove with this
// machine's nginx (/usr/sbin/nginx) and shows the report in a webview: the location's upstream connections before
// and after the fixes (200 requests with Connection: close: about 200 → at most the 8 in flight), the location prove
// skips with its reason, and the summary line. The screenshot for docs/editors.md lands in docs/images/.
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, openEditorSession, type EditorSession } from './support/session.js';
import { quickOpen, runCommand } from './support/workbench.js';

/** Its upstream has no keepalive; the second location's regex has a lookbehind, which prove makes no path for. */
const SITE = [
  'upstream app {',
  '    server 127.0.0.1:3000;',
  '}',
  'server {',
  '    listen 80;',
  '    server_name app.test;',
  '    location /api/ {',
  '        proxy_pass http://app;',
  '    }',
  '    location ~ (?<=x)y {',
  '        proxy_pass http://app;',
  '    }',
  '}',
  '',
].join('\n');

const TIMEOUT = 60_000;

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({ files: { 'app.nginx': SITE } });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

/** The webview frame showing prove's table, once it shows. */
async function proveFrame(): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          if ((await frame.locator('table .where').count().catch(() => 0)) > 0) {
            found = frame;
            return true;
          }
        }
        return false;
      },
      { timeout: TIMEOUT },
    )
    .toBe(true);
  return found!;
}

describe('Prove connection reuse in a real VS Code', () => {
  it('runs prove from the command palette and shows the connections before and after the fixes', async () => {
    await quickOpen(page, 'app.nginx');
    await runCommand(page, 'nginx-keepalive: Prove connection reuse');
    const frame = await proveFrame();
    await page.locator('.tab.active', { hasText: 'nginx-keepalive prove' }).waitFor({ timeout: TIMEOUT });

    // Each location is a row of numbers and a row of what they mean.
    const rows = await frame.$$eval('table tbody tr.location-row', (trs) =>
      trs.map((tr) => {
        const text = (element: Element | null | undefined) => element?.textContent?.trim() ?? '';
        const cell = (name: string) => text(tr.querySelector(`.${name}`));
        return { where: cell('where'), location: cell('location'), before: cell('before'), after: cell('after'), details: text(tr.nextElementSibling?.querySelector('.details')) };
      }),
    );
    expect(rows.map((row) => [row.where, row.location])).toEqual([
      ['app.nginx:8', '/api/'],
      ['app.nginx:11', '~ (?<=x)y'],
    ]);
    const [api, regex] = rows;
    expect(Number(api!.before)).toBeGreaterThanOrEqual(180);
    expect(Number(api!.after)).toBeGreaterThanOrEqual(1);
    expect(Number(api!.after)).toBeLessThanOrEqual(8);
    expect(api!.details).toContain('reuses connections after the fixes');
    expect(api!.details).toContain('statuses 200×200 → 200×200');
    expect(await frame.locator('svg.bar').count()).toBe(1);
    expect(regex!.before).toBe('—');
    expect(regex!.details).toMatch(/^not measured: regex location: /);

    const summary = (await frame.locator('.summary').textContent())?.trim();
    expect(summary).toBe(`upstream connections ${api!.before} → ${api!.after} for 200 requests across 1 location`);
    expect((await frame.locator('.meta').first().textContent()) ?? '').toContain('the workspace folder workspace (prove . in');
    await page.screenshot({ path: path.join(images, 'vscode-prove.png') });
  });
});
