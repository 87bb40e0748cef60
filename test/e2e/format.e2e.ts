// "Format Document" in a real VS Code (code-server 4.100.3 in headless Chromium): a badly indented nginx.conf, formatted
// through the command palette and saved, equals what `nginx-keepalive format -` prints for it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditorSession, repoRoot, type EditorSession } from './support/session.js';
import { quickOpen, runCommand, saveActiveEditor } from './support/workbench.js';

const FILE = 'nginx.conf';
const MESSY = `events {}
http {
upstream app {
      server 127.0.0.1:3000;
  keepalive   16;
}
    server {
  listen   80 ;
        location / {
proxy_pass http://app;
                proxy_http_version 1.1;   # reuse
  proxy_set_header Connection "";
        }


  location /health {return 200;}
    }
}
`;

let session: EditorSession;
let page: Page;

beforeAll(async () => {
  session = await openEditorSession({
    files: { [FILE]: MESSY },
    // Four spaces whatever the file looks like: the editor would otherwise guess its indentation from the mess.
    userSettings: { 'editor.detectIndentation': false, 'editor.tabSize': 4, 'editor.insertSpaces': true },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

describe('Format Document in a real VS Code', () => {
  it('formats a badly indented nginx.conf exactly as `nginx-keepalive format -` does', async () => {
    const expected = execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'format', '-'], {
      input: MESSY,
      encoding: 'utf8',
      cwd: session.workspace,
    });
    expect(expected).not.toBe(MESSY);
    await quickOpen(page, FILE);
    // The server has the document once its code lens shows above the upstream: asked earlier, VS Code would answer
    // that no formatter is installed for nginx (the language client registers it when the server starts).
    await page.locator('.contentWidgets .codelens-decoration', { hasText: 'keepalive' }).first().waitFor({ timeout: 60_000 });
    await runCommand(page, 'Format Document');
    // The edits arrive from the language server after the palette closes: the tab turns dirty when they are applied.
    await page.locator(`.tab.active.dirty[data-resource-name="${FILE}"]`).waitFor({ timeout: 60_000 });
    await saveActiveEditor(page);
    expect(readFileSync(path.join(session.workspace, FILE), 'utf8')).toBe(expected);
  });
});
