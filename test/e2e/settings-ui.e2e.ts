// The extension's settings in VS Code's Settings editor (code-server 4.100.3): every one renders as a field a user
// can change there (none shows only "Edit in settings.json"), and the rule severities are listed rule by rule
// before the user has chosen any. The window is tall enough for every setting of the extension to be rendered at
// once (the list is virtual: rows off screen are not in the DOM), so one filter shows them all.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../server/src/rules/registry.js';
import { images, manifest, openEditorSession, type EditorSession } from './support/session.js';

let session: EditorSession;
let page: Page;

const TIMEOUT = { timeout: 60_000 };
const settingKeys = Object.keys(
  (manifest as unknown as { contributes: { configuration: { properties: object } } }).contributes.configuration.properties,
);

/** The label the Settings editor gives a key: its last segment, words split at capitals (`maxFileSize` → Max File Size). */
function displayLabel(key: string): string {
  const last = key.slice(key.lastIndexOf('.') + 1);
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The rendered setting whose label (without its category) is `label`. */
function settingItem(label: string): Locator {
  return page.locator('.settings-editor .setting-item-contents').filter({
    has: page.locator('.setting-item-label', { hasText: new RegExp(`^${label}$`) }),
  });
}

beforeAll(async () => {
  session = await openEditorSession({ files: { 'nginx.conf': 'events {}\n' }, viewport: { width: 1280, height: 3200 } });
  page = session.page;
  await page.keyboard.press('Control+,');
  // The Settings editor opens with the focus in its search box (a small Monaco editor).
  await page.locator('.settings-editor .settings-header .monaco-editor.focused').waitFor(TIMEOUT);
  await page.keyboard.type(`@ext:${manifest.publisher}.${manifest.name}`);
  await page.locator('.settings-editor .settings-count-widget', { hasText: `${settingKeys.length} Settings Found` }).waitFor(TIMEOUT);
});

afterAll(async () => {
  await session?.close();
});

describe('the Settings editor', () => {
  it('renders each setting of the extension as a field, none as only "Edit in settings.json"', async () => {
    for (const key of settingKeys) {
      const item = settingItem(displayLabel(key));
      await item.waitFor(TIMEOUT);
      expect(await item.locator('.edit-in-settings-button').count(), key).toBe(0);
      expect(await item.locator('input, select, [role="checkbox"], .monaco-select-box, .setting-list-object-widget, .setting-list-widget').count(), key).toBeGreaterThan(0);
    }
  });

  it('lists each rule with its default severity before any is chosen', async () => {
    const item = settingItem('Rules');
    for (const rule of rules) await item.locator('.setting-list-object-row', { hasText: rule.meta.id }).first().waitFor(TIMEOUT);
    const rows = await item.locator('.setting-list-object-row').allTextContents();
    for (const rule of rules) {
      expect(rows.find((row) => row.includes(rule.meta.id)), rule.meta.id).toContain(rule.meta.defaultSeverity);
    }
    await item.screenshot({ path: path.join(images, 'vscode-settings.png') });
  });
});
