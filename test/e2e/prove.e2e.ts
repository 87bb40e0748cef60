// "nginx-keepalive: Prove connection reuse" in a real VS Code (code-server 4.100.3 in headless Chromium): from the
// command palette, on a workspace whose upstream has no keepalive, it runs the bundled CLI's prove with this
// machine's nginx (/usr/sbin/nginx) and shows the report in a webview: the location's upstream connections before
// and after the fixes (200 requests with Connection: close: about 200 → at most the 8 in flight), the location prove
// skips with its reason, and the summary line, for the active file's workspace folder only (a multi-root workspace).
// Cancelling the progress notification stops prove, which removes its sandbox and stops its nginx. code-server and
// what it starts get a TMPDIR of the test's own, so what prove leaves there can be seen. The screenshot for
// docs/editors.md lands in docs/images/.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
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

/** 40 locations, each measured with 200 requests as written and as fixed: seconds of work, time to cancel it. */
const SLOW = [
  'upstream slow {\n    server 127.0.0.1:3001;\n}\nserver {\n    listen 80;',
  ...Array.from({ length: 40 }, (_, index) => `    location /l${index}/ {\n        proxy_pass http://slow;\n    }`),
  '}',
  '',
].join('\n');

const TIMEOUT = 60_000;

let session: EditorSession;
let page: Page;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nk-prove-e2e-tmp-'));
  session = await openEditorSession({
    files: { 'app/app.nginx': SITE, 'slow/slow.nginx': SLOW },
    folders: ['app', 'slow'],
    env: { TMPDIR: tmp },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** prove's sandbox prefixes in the session's TMPDIR. */
const sandboxes = () => readdirSync(tmp).filter((name) => name.startsWith('nginx-keepalive-prove-'));

/** nginx processes whose command line names the session's TMPDIR (every sandbox lives there). */
function nginxUnderTmp(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        return cmdline.includes('nginx') && cmdline.includes(tmp);
      } catch {
        return false; // ended while being read
      }
    })
    .map(Number);
}

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
    // The active file's folder, not the other one (whose 40 locations would be rows too).
    expect((await frame.locator('.meta').first().textContent()) ?? '').toContain(`the workspace folder app (prove . in ${path.join(session.workspace, 'app')})`);
    await page.screenshot({ path: path.join(images, 'vscode-prove.png') });
    expect(sandboxes()).toEqual([]);

    // Run again from the view itself (no text editor active): the same folder is proved, the page replaced.
    await page.locator('.tab', { hasText: 'nginx-keepalive prove' }).click();
    await page.locator('.tab.active', { hasText: 'nginx-keepalive prove' }).waitFor({ timeout: TIMEOUT });
    await runCommand(page, 'nginx-keepalive: Prove connection reuse');
    await expect.poll(() => frame.isDetached(), { timeout: TIMEOUT }).toBe(true);
    const again = await proveFrame();
    expect((await again.locator('.meta').first().textContent()) ?? '').toContain('the workspace folder app (prove . in');
    expect(await again.locator('table tr.location-row').count()).toBe(2);
  });

  it('shows a progress notification while it runs; Cancel stops prove, which stops nginx and removes its sandbox', async () => {
    await quickOpen(page, 'slow.nginx');
    await runCommand(page, 'nginx-keepalive: Prove connection reuse');
    const progress = page.locator('.notifications-toasts .notification-toast', { hasText: 'nginx-keepalive: Prove connection reuse' });
    await progress.waitFor({ timeout: TIMEOUT });
    // Cancelled once prove is at work: its sandbox exists (and nginx runs in it, or is about to).
    await expect.poll(() => sandboxes().length, { timeout: TIMEOUT }).toBe(1);
    await progress.hover();
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await page
      .locator('.notifications-toasts .notification-toast', { hasText: 'nginx-keepalive: prove cancelled (it stopped nginx and removed its sandbox)' })
      .waitFor({ timeout: TIMEOUT });
    // The message shows once prove has exited, after its cleanup.
    expect(sandboxes()).toEqual([]);
    expect(nginxUnderTmp()).toEqual([]);
  });
});
