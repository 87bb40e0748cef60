// The extension's settings in VS Code's Settings editor (code-server 4.100.3): every one renders as a field a user
// can change there (none shows only "Edit in settings.json"), and the rule severities are listed rule by rule
// before the user has chosen any.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../server/src/rules/registry.js';
import { images, manifest, openEditorSession, type EditorSession } from './support/session.js';

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({ files: { 'nginx.conf': 'events {}\n' } });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

const TIMEOUT = { timeout: 60_000 };

/** Opens the Settings editor (its search box then has the focus). */
async function openSettingsEditor(): Promise<void> {
  await page.keyboard.press('Control+,');
  // The Settings editor opens with the focus in its search box (a small Monaco editor).
  await page.locator('.settings-editor .settings-header .monaco-editor.focused').waitFor(TIMEOUT);
}

/** Shows only the setting `key` (the list is virtual: one setting at a time is all in the DOM) and returns it. */
async function searchSetting(key: string) {
  await page.locator('.settings-editor .settings-header .monaco-editor').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(key);
  await page.locator('.settings-editor .settings-count-widget', { hasText: /^1 Setting Found$/ }).waitFor(TIMEOUT);
  const item = page.locator('.settings-editor .setting-item-contents').first();
  await item.waitFor(TIMEOUT);
  return item;
}

describe('the Settings editor', () => {
  const settingKeys = Object.keys(
    (manifest as unknown as { contributes: { configuration: { properties: object } } }).contributes.configuration.properties,
  );

  it('lists every setting of the extension', async () => {
    await openSettingsEditor();
    await page.keyboard.type(`@ext:${manifest.publisher}.${manifest.name}`);
    await page.locator('.settings-editor .settings-count-widget', { hasText: `${settingKeys.length} Settings Found` }).waitFor(TIMEOUT);
  });

  it('renders each as a field, none as only "Edit in settings.json"', async () => {
    for (const key of settingKeys) {
      const item = await searchSetting(key);
      expect(await item.locator('.edit-in-settings-button').count(), key).toBe(0);
      expect(await item.locator('input, select, .monaco-select-box, .setting-list-object-widget, .setting-list-widget').count(), key).toBeGreaterThan(0);
    }
  });

  it('lists each rule with its default severity before any is chosen', async () => {
    const item = await searchSetting('nginxKeepalive.rules');
    for (const rule of rules) await item.locator('.setting-list-object-row', { hasText: rule.meta.id }).first().waitFor(TIMEOUT);
    const rows = await item.locator('.setting-list-object-row').allTextContents();
    for (const rule of rules) {
      expect(rows.find((row) => row.includes(rule.meta.id)), rule.meta.id).toContain(rule.meta.defaultSeverity);
    }
    await page.screenshot({ path: path.join(images, 'vscode-settings.png') });
  });
});
