// Colour without the language server: the extension's TextMate grammars in a real VS Code (code-server 4.100.3).
// Semantic highlighting is off, so every colour seen here comes from syntaxes/, as it does on the first frame of a
// file, before the server answers, and in Markdown, where the server never runs. Scopes are read from VS Code's own
// "Developer: Inspect Editor Tokens and Scopes" widget, and colours from the rendered token spans.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditorSession, repoRoot, type EditorSession } from './support/session.js';
import { goToLine, quickOpen, runCommand } from './support/workbench.js';

const TIMEOUT = { timeout: 60_000 };
const SIGIL = readFileSync(path.join(repoRoot, 'examples/dokku/nginx.conf.sigil'), 'utf8');
const NGINX_CONF = readFileSync(path.join(repoRoot, 'examples/plain/nginx.conf'), 'utf8');
const OPENRESTY = ['location /hello {', '    content_by_lua_block {', '        local greeting = { text = "}" }', '        ngx.say(greeting.text)', '    }', '}', ''].join('\n');
const MARKDOWN = ['# Keepalive', '', 'Add this to the upstream:', '', '```nginx', 'keepalive 16;', '```', ''].join('\n');

let session: EditorSession;
let page: Page;

/** 1-based number of the first line of `text` whose trimmed text is `line`. */
function lineNumber(text: string, line: string): number {
  const index = text.split('\n').findIndex((candidate) => candidate.trim() === line);
  if (index === -1) throw new Error(`no line ${JSON.stringify(line)}`);
  return index + 1;
}

/**
 * The TextMate scopes (innermost first) of the token at the start of `line` (after its indentation), as the
 * inspect widget shows them once it has the token `tokenText`.
 */
async function inspectScopes(line: number, tokenText: string): Promise<string[]> {
  await goToLine(page, line);
  await page.keyboard.press('Home'); // to the first non-blank character
  await runCommand(page, 'Developer: Inspect Editor Tokens and Scopes');
  const widget = page.locator('.token-inspect-widget');
  await widget.locator('.tiw-token', { hasText: tokenText }).waitFor(TIMEOUT);
  const scopes = await widget.locator('.tiw-metadata-scopes').innerText();
  await page.keyboard.press('Escape');
  await widget.waitFor({ ...TIMEOUT, state: 'hidden' });
  return scopes.split('\n').map((scope) => scope.trim()).filter(Boolean);
}

/**
 * The rendered spans of the visible editor line whose text is `lineText` (whitespace runs compared as one space: the
 * editor renders spaces as no-break spaces), as [text, computed colour]. Neighbouring tokens the theme styles alike
 * share a span.
 */
async function renderedSpans(lineText: string): Promise<[string, string][]> {
  const wanted = lineText.replace(/\s+/g, ' ').trim();
  const handle = await page.waitForFunction((text) => {
    const lines = [...document.querySelectorAll('.monaco-editor .view-lines .view-line')];
    const line = lines.find((candidate) => candidate.textContent?.replace(/\s+/g, ' ').trim() === text);
    if (!line) return undefined;
    return [...line.querySelectorAll(':scope > span > span')].map((span) => [
      span.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      getComputedStyle(span).color,
    ]);
  }, wanted, TIMEOUT);
  return (await handle.jsonValue()) as [string, string][];
}

/** The colour of the span on `lineText` whose text begins with `token`. */
async function colourOf(lineText: string, token: string): Promise<string> {
  const spans = await renderedSpans(lineText);
  const span = spans.find(([text]) => text.startsWith(token));
  if (!span) throw new Error(`no span starting ${JSON.stringify(token)} in ${JSON.stringify(spans)}`);
  return span[1];
}

beforeAll(async () => {
  session = await openEditorSession({
    files: { 'nginx.conf.sigil': SIGIL, 'nginx.conf': NGINX_CONF, 'openresty.nginx': OPENRESTY, 'README.md': MARKDOWN },
    userSettings: { 'editor.semanticHighlighting.enabled': false },
  });
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

describe('TextMate colour in code-server, with semantic highlighting off', () => {
  it('scopes and colours directive names in nginx.conf', async () => {
    await quickOpen(page, 'nginx.conf');
    const scopes = await inspectScopes(lineNumber(NGINX_CONF, 'worker_processes auto;'), 'worker_processes');
    expect(scopes).toEqual(['keyword.control.directive.nginx', 'meta.directive.nginx', 'source.nginx']);
    // The theme colours the directive name; its plain argument keeps the editor's default foreground.
    expect(await colourOf('worker_processes auto;', 'worker_processes')).not.toBe(await colourOf('worker_processes auto;', 'auto'));
  });

  it('scopes Go-template actions and the nginx around them in a Dokku sigil', async () => {
    await quickOpen(page, 'nginx.conf.sigil');
    const action = await inspectScopes(lineNumber(SIGIL, '{{ range $port_map := .PROXY_PORT_MAP | split " " }}'), '{{');
    expect(action).toEqual(['punctuation.section.embedded.begin.go-template', 'meta.embedded.line.go-template', 'source.nginx']);
    const server = await inspectScopes(lineNumber(SIGIL, 'server {'), 'server');
    expect(server).toEqual(['keyword.control.directive.block.nginx', 'source.nginx']);
    // A line near `server {`, so on screen: the directive and the action's delimiters coloured, `ssl` plain.
    const listen = 'listen [{{ $.NGINX_BIND_ADDRESS_IP6 }}]:{{ $listen_port }} ssl;';
    const plain = await colourOf(listen, 'ssl');
    expect(await colourOf(listen, 'listen')).not.toBe(plain);
    expect(await colourOf(listen, '{{')).not.toBe(plain);
  });

  it("hands a *_by_lua_block body to VS Code's Lua grammar", async () => {
    await quickOpen(page, 'openresty.nginx');
    const scopes = await inspectScopes(lineNumber(OPENRESTY, 'local greeting = { text = "}" }'), 'local');
    expect(scopes).toEqual(['keyword.local.lua', 'meta.embedded.block.lua', 'source.nginx']);
    // The `}` in the Lua string did not end the block: the next line is still Lua.
    const call = await inspectScopes(lineNumber(OPENRESTY, 'ngx.say(greeting.text)'), 'ngx');
    expect(call.at(-2)).toBe('meta.embedded.block.lua');
  });

  it('colours a ```nginx block in Markdown as nginx', async () => {
    await quickOpen(page, 'README.md');
    const scopes = await inspectScopes(lineNumber(MARKDOWN, 'keepalive 16;'), 'keepalive');
    expect(scopes).toEqual([
      'keyword.control.directive.nginx', 'meta.directive.nginx', 'meta.embedded.block.nginx', 'markup.fenced_code.block.markdown',
      'text.html.markdown',
    ]);
    const prose = await colourOf('Add this to the upstream:', 'Add this');
    expect(await colourOf('keepalive 16;', 'keepalive')).not.toBe(prose);
  });
});
