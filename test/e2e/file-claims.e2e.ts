// Which files the extension makes nginx, in code-server: fontconfig's XML and supervisor's INI under conf.d/ keep the
// language VS Code gives them and get no problems; an nginx conf.d file and an extensionless sites-available file
// are switched to NGINX because their text is nginx, and show their findings; a language the user picks is kept.
// The XML and INI are real files (test/engine/document-claim/SOURCES.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditorSession, repoRoot, type EditorSession } from './support/session.js';
import { quickOpen, runCommand, showProblems, waitForProblems } from './support/workbench.js';

const realFile = (name: string) => readFileSync(path.join(repoRoot, 'test/engine/document-claim', name), 'utf8');

/** An upstream without keepalive (upstream-keepalive on line 1), proxied to over HTTP/1.1 with Connection cleared. */
const SITE =
  'upstream app {\n    server 127.0.0.1:3000;\n}\nserver {\n    listen 80;\n    location / {\n' +
  '        proxy_pass http://app;\n        proxy_http_version 1.1;\n        proxy_set_header Connection "";\n    }\n}\n';

const TIMEOUT = { timeout: 60_000 };

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({
    files: {
      'fonts/conf.d/49-sansserif.conf': realFile('49-sansserif.conf'),
      'supervisor/conf.d/app.conf': realFile('supervisord.conf'),
      'nginx/conf.d/site.conf': SITE,
      'nginx/sites-available/digitalocean': realFile('digitalocean'),
      // Opened only in the last test, as a fresh document; no findings, so the first test's Problems stay as they are.
      'nginx/sites-available/static': 'server {\n    listen 8080;\n    root /srv/www;\n}\n',
    },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

/** Waits until the status bar shows `expected` (a regular expression's source) as the active editor's language. */
async function waitForLanguage(expected: string): Promise<void> {
  await page.locator('[id="status.editor.mode"]', { hasText: new RegExp(`^\\s*${expected}\\s*$`) }).waitFor(TIMEOUT);
}

/** Brings an open editor's tab to the front (Quick Open on an open file may pick its "recently opened" entry). */
async function showTab(name: string): Promise<void> {
  await page.locator(`.tab[data-resource-name="${name}"]`).click();
  await page.locator(`.tab.active[data-resource-name="${name}"]`).waitFor(TIMEOUT);
}

/** Shows a file: its tab if it has one, else through Quick Open. */
async function open(name: string): Promise<void> {
  if ((await page.locator(`.tab[data-resource-name="${name}"]`).count()) > 0) await showTab(name);
  else await quickOpen(page, name);
}

/** The Problems panel's file headers (base names). */
function problemFiles(): Promise<string[]> {
  return page.$$eval('.markers-panel .monaco-list-row[aria-level="1"] .monaco-icon-label', (labels) =>
    labels.map((label) => (label.getAttribute('aria-label') ?? '').split('/').pop() ?? ''),
  );
}

describe('file claims in code-server', () => {
  it('keeps fontconfig XML and supervisor INI in their languages, switches the nginx files, and reports only those', async () => {
    // What VS Code itself gives a *.conf: its built-in Properties language, whose `.conf` extension outranks the XML
    // language's `<?xml` first-line test (code-server 4.100.3, as VS Code 1.100). Not NGINX is the point.
    await quickOpen(page, '49-sansserif.conf');
    await waitForLanguage('Properties');
    await quickOpen(page, 'app.conf');
    await waitForLanguage('Properties');
    // The nginx conf.d file opens as VS Code's *.conf language, then turns NGINX once the extension has read it.
    await quickOpen(page, 'site.conf');
    await waitForLanguage('NGINX');
    await quickOpen(page, 'digitalocean');
    await waitForLanguage('NGINX');

    // Both claims above ran after the XML's and the INI's: had those been switched, they would be NGINX by now.
    await showTab('49-sansserif.conf');
    await waitForLanguage('Properties');
    await showTab('app.conf');
    await waitForLanguage('Properties');

    // The server (open files and the workspace index alike) reports site.conf's upstream and nothing in the others.
    await showProblems(page);
    const problems = await waitForProblems(page, ['upstream-keepalive@1']);
    expect(problems.every((problem) => problem.source === 'nginx-keepalive')).toBe(true);
    expect(await problemFiles()).toEqual(['site.conf']);
  });

  it('never switches back a document whose language the user chose', async () => {
    await open('site.conf');
    await waitForLanguage('NGINX');
    // Change Language Mode from the status bar: Plain Text.
    await page.locator('[id="status.editor.mode"]').click();
    await page.locator('.quick-input-widget input').waitFor(TIMEOUT);
    await page.keyboard.type('Plain Text');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Plain Text' }).waitFor(TIMEOUT);
    await page.keyboard.press('Enter');
    await waitForLanguage('Plain Text');

    // Closed and opened again: not switched to NGINX.
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.tab').first().waitFor({ ...TIMEOUT, state: 'detached' });
    // Opened afresh, VS Code gives it Properties again (or keeps Plain Text if it kept the document alive).
    const notNginx = '(Properties|Plain Text)';
    await quickOpen(page, 'site.conf');
    await waitForLanguage(notNginx);
    // A file opened now for the first time is judged after site.conf was: once it shows NGINX, a switch of site.conf
    // would have landed too.
    await quickOpen(page, 'static');
    await waitForLanguage('NGINX');
    await showTab('site.conf');
    await waitForLanguage(notNginx);
    // The document was really closed and opened afresh (not kept alive by VS Code): the extension says it left it.
    await runCommand(page, 'nginx-keepalive: Show output');
    await page
      .locator('.part.panel .view-lines')
      .filter({ hasText: 'nginx/conf.d/site.conf: nginx by its text, left properties: its language was changed to plaintext' })
      .waitFor(TIMEOUT);
  });
});
