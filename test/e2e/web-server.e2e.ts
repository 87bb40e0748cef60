// The language server of the extension's browser entry (dist/server-browser.js, lsp/browser-main.ts) in a real web
// worker in headless Chromium, spoken to over postMessage as VS Code for the Web's client speaks to it: the
// diagnostics of open documents equal the CLI's for the same texts and names (an include reaching another open
// document included), and it answers a hover and offers the rule's quick fix. It has no disk: nothing is fetched but
// the worker script and its two wasm files.
import { mkdtempSync, readFileSync, mkdirSync, rmSync, writeFileSync, createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRuleLines } from '../cli/helpers.js';
import { repoRoot } from '../playground/cases.js';

const dist = path.join(repoRoot, 'dist');
const SERVED = new Set(['server-browser.js', 'web-tree-sitter.wasm', 'tree-sitter-nginx.wasm']);
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm' };

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
const fetched: string[] = [];

interface Diagnostic {
  code: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** The worker script, its wasm files and an empty page; nothing else. */
function serve(): Promise<Server> {
  const files = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://localhost').pathname.slice(1);
    if (name === '') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>web worker server</title>');
      return;
    }
    const file = path.join(dist, name);
    if (!SERVED.has(name) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(name)]! });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => files.listen(0, '127.0.0.1', () => resolve(files)));
}

/** Starts the worker and initializes it, as a client with pushed diagnostics; `window.lsp` talks to it. */
async function startWorker(): Promise<void> {
  await page.evaluate(async () => {
    const worker = new Worker('/server-browser.js');
    let nextId = 1;
    const answers = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
    const published = new Map<string, unknown[]>();
    const waiting: Array<() => void> = [];
    worker.onmessage = ({ data }) => {
      if (data.id !== undefined && data.method === undefined) {
        answers.get(data.id)?.(data);
      } else if (data.id !== undefined) {
        // The server's requests: settings (none set), registrations (accepted).
        const result = data.method === 'workspace/configuration' ? data.params.items.map(() => ({})) : null;
        worker.postMessage({ jsonrpc: '2.0', id: data.id, result });
      } else if (data.method === 'textDocument/publishDiagnostics') {
        published.set(data.params.uri, data.params.diagnostics);
        for (const wake of waiting.splice(0)) wake();
      }
    };
    const request = (method: string, params: unknown) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        answers.set(id, (message) => (message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result)));
        worker.postMessage({ jsonrpc: '2.0', id, method, params });
      });
    const notify = (method: string, params: unknown) => worker.postMessage({ jsonrpc: '2.0', method, params });
    const shown = (uris: string[]) =>
      Object.fromEntries(uris.map((uri) => [uri, (published.get(uri) as Diagnostic[]).map((d) => `${d.code}@${d.range.start.line + 1}`).sort()]));
    /**
     * The latest diagnostics of each of `uris` (as sorted "rule@line") once every one has some and together they equal
     * `expected`: woken by each publication, never by a timer (vitest's timeout bounds a wait that never ends).
     */
    const diagnostics = async (uris: string[], expected: Record<string, string[]>) => {
      const settled = () => uris.every((uri) => published.has(uri)) && JSON.stringify(shown(uris)) === JSON.stringify(expected);
      while (!settled()) await new Promise<void>((wake) => waiting.push(wake));
      return published;
    };
    const latest = (uri: string) => published.get(uri) as Diagnostic[];
    await request('initialize', { processId: null, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
    notify('initialized', {});
    (window as unknown as { lsp: unknown }).lsp = { request, notify, diagnostics, latest };
  });
}

type Lsp = {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params: unknown): void;
  diagnostics(uris: string[], expected: Record<string, string[]>): Promise<void>;
  latest(uri: string): Diagnostic[];
};

/**
 * Opens the documents (uri -> text) in the worker, in that order, and waits until their published diagnostics are
 * `expected` (uri -> sorted "rule@line"); a server that never gets there fails the test on vitest's timeout.
 */
async function openAndExpect(documents: Record<string, string>, expected: Record<string, string[]>): Promise<void> {
  await page.evaluate(
    async ({ docs, want }) => {
      const lsp = (window as unknown as { lsp: Lsp }).lsp;
      for (const [uri, text] of Object.entries(docs)) lsp.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'nginx', version: 1, text } });
      await lsp.diagnostics(Object.keys(docs), want);
    },
    { docs: documents, want: expected },
  );
}

/** The CLI's findings per file (path relative to a temp dir holding `files`), as sorted "rule@line". */
function cliFindings(files: Record<string, string>, checked: string[]): Record<string, string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-web-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    return checkRuleLines(dir, checked);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  server = await serve();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  page = await browser.newPage();
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(`${origin}/`);
  await startWorker();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe('the language server in a web worker', () => {
  it('publishes the diagnostics the CLI reports for a plain config and a Dokku sigil', async () => {
    const plain = readFileSync(path.join(repoRoot, 'examples/plain/nginx.conf'), 'utf8');
    const sigil = readFileSync(path.join(repoRoot, 'examples/dokku/nginx.conf.sigil'), 'utf8');
    const cli = cliFindings({ 'plain/nginx.conf': plain, 'dokku/nginx.conf.sigil': sigil }, ['plain/nginx.conf', 'dokku/nginx.conf.sigil']);
    expect(cli['plain/nginx.conf']!.length).toBeGreaterThan(0);
    expect(cli['dokku/nginx.conf.sigil']!.length).toBeGreaterThan(0);
    await openAndExpect(
      { 'file:///w/plain/nginx.conf': plain, 'file:///w/dokku/nginx.conf.sigil': sigil },
      { 'file:///w/plain/nginx.conf': cli['plain/nginx.conf']!, 'file:///w/dokku/nginx.conf.sigil': cli['dokku/nginx.conf.sigil']! },
    );
  });

  it('resolves an include among the open documents, as the CLI among files', async () => {
    const files = {
      'site/nginx.conf': 'events {}\nhttp {\n    include conf.d/*.conf;\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://app;\n        }\n    }\n}\n',
      'site/conf.d/app.conf': 'upstream app {\n    server 127.0.0.1:8080;\n}\n',
    };
    const cli = cliFindings(files, ['site/nginx.conf']);
    // The upstream is found through the include: its missing keepalive is reported, not a pass to an unknown name.
    expect(cli['site/conf.d/app.conf']).toContain('upstream-keepalive@1');
    expect(cli['site/nginx.conf'] ?? []).toEqual([]);
    // The includer opens first: its first diagnostics cannot know the upstream, the next ones must.
    await openAndExpect(Object.fromEntries(Object.entries(files).map(([name, text]) => [`file:///w/${name}`, text])), {
      'file:///w/site/nginx.conf': [],
      'file:///w/site/conf.d/app.conf': cli['site/conf.d/app.conf']!,
    });
  });

  it('answers a hover and offers the rule’s quick fix', async () => {
    const uri = 'file:///w/site/conf.d/app.conf';
    const { hover, actions } = await page.evaluate(async (target) => {
      const lsp = (window as unknown as { lsp: Lsp }).lsp;
      const [diagnostic] = lsp.latest(target).filter((d) => d.code === 'upstream-keepalive');
      const hover = await lsp.request('textDocument/hover', { textDocument: { uri: target }, position: { line: 0, character: 2 } });
      const actions = (await lsp.request('textDocument/codeAction', {
        textDocument: { uri: target },
        range: diagnostic!.range,
        context: { diagnostics: [diagnostic], only: ['quickfix'] },
      })) as { title: string; isPreferred?: boolean }[];
      return { hover: JSON.stringify(hover), actions: actions.map((action) => ({ title: action.title, preferred: action.isPreferred === true })) };
    }, uri);
    expect(hover).toMatch(/keepalive/);
    expect(actions.find((action) => action.preferred)?.title).toMatch(/keepalive/);
  });

  it('fetched nothing but the worker script and its wasm files', () => {
    expect([...new Set(fetched)].sort()).toEqual(['/', '/server-browser.js', '/tree-sitter-nginx.wasm', '/web-tree-sitter.wasm']);
  });
});
