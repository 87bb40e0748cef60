// The playground page in headless Chromium: `npm run build:playground`'s dist/playground/ served by a local static
// server, three configs loaded through the URL fragment (a plain config, a Dokku sigil, a Jinja2 template), and the
// findings (`data-rule`, `data-line`) and the fixed text (#fixed) compared with the CLI's for the same text and name.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFragment } from '../../server/src/playground/fragment.js';
import { caseText, cliVerdict, PLAYGROUND_CASES, repoRoot } from '../playground/cases.js';

const site = path.join(repoRoot, 'dist/playground');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
/** Requests the page made to anywhere but the local server: there must be none. */
const elsewhere: string[] = [];

/** Files of dist/playground only; anything else is a 404. */
function serveSite(): Promise<Server> {
  const files = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = path.join(site, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(`${site}${path.sep}`) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => files.listen(0, '127.0.0.1', () => resolve(files)));
}

async function openChecked(fragment: string): Promise<void> {
  await page.goto(`${origin}/index.html${fragment}`);
  await page.waitForSelector('body[data-state="checked"]');
}

async function shownFindings(): Promise<string[]> {
  return (await page.$$eval('[data-rule]', (items) => items.map((item) => `${(item as HTMLElement).dataset.rule}@${(item as HTMLElement).dataset.line}`))).sort();
}

beforeAll(async () => {
  const built = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build-playground.mjs')], { cwd: repoRoot, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build:playground failed:\n${built.stderr}`);
  server = await serveSite();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) elsewhere.push(request.url());
  });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe('the playground page', () => {
  for (const entry of PLAYGROUND_CASES) {
    it(`shows the CLI's findings and fixed text for ${entry.source} (${entry.fileName})`, async () => {
      const text = caseText(entry);
      const expected = cliVerdict(text, entry.fileName, entry.nginxVersion);
      await openChecked(writeFragment({ text, fileName: entry.fileName, nginxVersion: entry.nginxVersion }));
      expect(await shownFindings()).toEqual(expected.findings);
      expect(expected.findings.length).toBeGreaterThan(0);
      expect(await page.textContent('#fixed')).toBe(expected.fixed);
      expect(await page.inputValue('#file')).toBe(entry.fileName);
      expect(await page.inputValue('#nginx')).toBe(entry.nginxVersion);
    });
  }

  it('checks again as the text is edited, and its Share link loads the edited config', async () => {
    const entry = PLAYGROUND_CASES[0]!;
    await openChecked(writeFragment({ text: caseText(entry), fileName: entry.fileName, nginxVersion: entry.nginxVersion }));
    const before = await shownFindings();
    // The upstream gets its keepalive: the upstream-keepalive finding goes.
    const edited = caseText(entry).replace('    upstream app {\n', '    upstream app {\n        keepalive 16;\n');
    expect(edited).not.toBe(caseText(entry));
    // As a user replaces the text: select all, then paste (the clipboard event a real paste delivers).
    await page.click('#editor');
    await page.keyboard.press('Control+A');
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.getElementById('editor')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, edited);
    await page.waitForFunction((count) => document.body.dataset.state === 'checked' && document.querySelectorAll('[data-rule]').length !== count, before.length);
    const expected = cliVerdict(edited, entry.fileName, entry.nginxVersion);
    expect(await shownFindings()).toEqual(expected.findings);
    expect(await shownFindings()).not.toContain(before.find((finding) => finding.startsWith('upstream-keepalive@')));

    await page.click('#share');
    const shared = await page.getAttribute('#share-link', 'href');
    expect(shared).toContain('#config=');
    await page.goto('about:blank');
    await page.goto(shared!);
    await page.waitForSelector('body[data-state="checked"]');
    expect(await shownFindings()).toEqual(expected.findings);
  });

  it('ships beside its script the licence of every npm package the script bundles', () => {
    const notices = readFileSync(path.join(site, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const name of ['codejar', 'path-browserify', 'web-tree-sitter']) expect(notices).toMatch(new RegExp(`^${name} \\S+ \\(MIT\\)$`, 'm'));
  });

  it('asked nothing of any other server', () => {
    expect(elsewhere).toEqual([]);
  });
});
