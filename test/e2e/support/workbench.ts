// Driving the VS Code workbench in Chromium the way a user does (keyboard, Problems panel, the Ctrl+. menu), and
// reading back what it shows. Every wait is on a DOM condition.
import type { Page } from 'playwright-core';

/** One row of the Problems panel. */
export interface Problem {
  code: string;
  source: string;
  message: string;
  line: number;
  severity: string;
}

const TIMEOUT = { timeout: 60_000 };

export async function waitForWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor(TIMEOUT);
}

export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
  await page.keyboard.type(fileName);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor(TIMEOUT);
  // The row is clicked, not Enter pressed: while the list is still filling in, Enter opens the row focused then (a
  // CI run under load waited 60 s for a tab that never opened, twice).
  await row.click();
  await page.locator(`.tab.active[data-resource-name="${fileName}"]`).waitFor(TIMEOUT);
  await page.locator('.monaco-editor.focused').waitFor(TIMEOUT);
}

export async function runCommand(page: Page, title: string): Promise<void> {
  // The palette lists the commands whose `when` holds as it opens, and does not add one whose context key is set
  // while it is open: "Prove connection reuse" waits for the extension's activation to set
  // nginxKeepalive.proveAvailable, which under load came after the palette opened (a CI run waited 60 s for a row
  // that could never appear). So a palette without the row is closed and opened again, until the overall timeout.
  const deadline = Date.now() + TIMEOUT.timeout;
  for (;;) {
    await page.keyboard.press('Control+Shift+P');
    await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
    await page.keyboard.type(title);
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
    const left = deadline - Date.now();
    const found = await row.waitFor({ timeout: Math.max(1, Math.min(5_000, left)) }).then(
      () => true,
      (error: unknown) => {
        if (left <= 5_000) throw error;
        return false;
      },
    );
    if (found) break;
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ ...TIMEOUT, state: 'hidden' });
  }
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ ...TIMEOUT, state: 'hidden' });
}

export async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: new RegExp(`^Ln ${line},`) }).waitFor(TIMEOUT);
}

export async function showProblems(page: Page): Promise<void> {
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').waitFor(TIMEOUT);
}

/** The rows of the Problems panel (file headers left out), as the panel renders them. */
export function readProblems(page: Page): Promise<Problem[]> {
  return page.$$eval('.markers-panel .monaco-list-row[aria-level="2"]', (rows) =>
    rows.map((row) => {
      const text = (selector: string): string => row.querySelector(selector)?.textContent?.trim() ?? '';
      const icon = row.querySelector('.marker-icon')?.classList;
      return {
        code: text('.marker-code'),
        source: text('.marker-source'),
        message: text('.marker-message'),
        line: Number(/\[Ln (\d+),/.exec(text('.marker-line'))?.[1] ?? 0),
        severity: ['error', 'warning', 'info'].find((name) => icon?.contains(name)) ?? '',
      };
    }),
  );
}

/** Waits until the Problems panel lists exactly these "rule-id@line" entries (in any order). */
export async function waitForProblems(page: Page, expected: string[]): Promise<Problem[]> {
  const want = [...expected].sort();
  await page.waitForFunction((want) => {
    const rows = [...document.querySelectorAll('.markers-panel .monaco-list-row[aria-level="2"]')];
    const seen = rows.map((row) => {
      const code = row.querySelector('.marker-code')?.textContent?.trim();
      const line = /\[Ln (\d+),/.exec(row.querySelector('.marker-line')?.textContent ?? '')?.[1];
      return `${code}@${line}`;
    });
    return JSON.stringify(seen.sort()) === JSON.stringify(want);
  }, want, TIMEOUT);
  return readProblems(page);
}

/** Waits until the Problems panel no longer lists `code`. */
export async function waitForProblemGone(page: Page, code: string): Promise<void> {
  await page.waitForFunction((code) => {
    const codes = [...document.querySelectorAll('.markers-panel .monaco-list-row[aria-level="2"] .marker-code')];
    return !codes.some((element) => element.textContent?.trim() === code);
  }, code, TIMEOUT);
}

/** The screen rectangle of the warning squiggle on the rendered editor line containing `lineText`, once it shows. */
export async function waitForSquiggle(page: Page, lineText: string): Promise<{ x: number; y: number }> {
  const handle = await page.waitForFunction((lineText) => {
    const editor = document.querySelector('.editor-instance .monaco-editor');
    const line = [...(editor?.querySelectorAll('.view-lines .view-line') ?? [])].find((l) =>
      l.textContent?.replace(/\u00a0/g, ' ').includes(lineText),
    ) as HTMLElement | undefined;
    if (!line) return false;
    const overlays = [...(editor?.querySelectorAll('.view-overlays > div') ?? [])] as HTMLElement[];
    const squiggle = overlays.find((o) => o.style.top === line.style.top)?.querySelector('.squiggly-warning');
    const box = squiggle?.getBoundingClientRect();
    return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : false;
  }, lineText, TIMEOUT);
  return (await handle.jsonValue()) as { x: number; y: number };
}

/**
 * Points the mouse at the squiggle and waits for VS Code's hover to show the problem with its rule id and, once the
 * server has answered the code action request, the hover's "Quick Fix..." link.
 */
export async function hoverProblem(page: Page, lineText: string, code: string): Promise<void> {
  const { x, y } = await waitForSquiggle(page, lineText);
  // Enter the editor away from the squiggle first, then onto it, as a hand on a mouse does.
  await page.mouse.move(x, y + 60);
  await page.mouse.move(x, y, { steps: 5 });
  await page.locator('.monaco-hover .hover-row', { hasText: code }).first().waitFor(TIMEOUT);
  await page.locator('.monaco-hover .action', { hasText: 'Quick Fix' }).waitFor(TIMEOUT);
}

/**
 * Opens the Ctrl+. menu for the Problems row of `code`: click the row, Enter to move the focus into the editor at
 * the problem (Ctrl+. with the focus in the panel opens the panel's own menu), then Ctrl+. Returns the titles.
 */
export async function openQuickFixMenu(page: Page, code: string): Promise<string[]> {
  await page.locator('.markers-panel .monaco-list-row[aria-level="2"]', { hasText: code }).click();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor.focused').waitFor(TIMEOUT);
  await page.keyboard.press('Control+.');
  await page.locator('.action-widget .monaco-list-row.action').first().waitFor(TIMEOUT);
  return page.$$eval('.action-widget .monaco-list-row.action', (rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** Moves the menu's focus to `title` with the arrow keys and applies it with Enter. */
export async function chooseQuickFix(page: Page, title: string): Promise<void> {
  const focused = page.locator('.action-widget .monaco-list-row.action.focused');
  const count = await page.locator('.action-widget .monaco-list-row.action').count();
  for (let i = 0; i < count && (await focused.getAttribute('aria-label')) !== title; i++) {
    await page.keyboard.press('ArrowDown');
  }
  if ((await focused.getAttribute('aria-label')) !== title) throw new Error(`"${title}" is not in the quick fix menu`);
  await page.keyboard.press('Enter');
  await page.locator('.action-widget').waitFor({ ...TIMEOUT, state: 'hidden' });
}

/** Ctrl+S in the active editor; resolves when its tab is no longer dirty. */
export async function saveActiveEditor(page: Page): Promise<void> {
  await page.keyboard.press('Control+S');
  await page.locator('.tab.active:not(.dirty)').waitFor(TIMEOUT);
}
