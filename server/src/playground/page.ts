// The playground page (dist/playground/index.html): an editor, the file kind and nginx version, the findings beside
// the text with their rule's description and page, the fixed text and its diff, and a Share link. Everything runs
// here: the core is bundled for the browser (scripts/build-playground.mjs) and the wasm parser is fetched from
// beside this script. Test contract (test/e2e/playground.e2e.ts): every finding is an element with `data-rule` and
// `data-line` (1-based), the fixed text is the element with id `fixed`, and `body[data-state]` is `checked` once
// the text on screen has been checked (`error` when it could not be).
import { CodeJar } from 'codejar';
import { loadNginxParser, loadWasmFrom, type NginxParser } from '../parser/loader.js';
import { checkText, type PlaygroundFinding, type PlaygroundResult } from './check-text.js';
import { readFragment, writeFragment, type PlaygroundLink } from './fragment.js';
import { escapeHtml, highlightedHtml } from './highlight.js';

const DEFAULT_TEXT = `upstream app {
    server 127.0.0.1:8080;
}

server {
    listen 80;
    location / {
        proxy_pass http://app;
    }
}
`;

/** Waits this long after the last keystroke before checking again. */
const CHECK_DELAY_MS = 150;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

const editor = element<HTMLElement>('editor');
const fileSelect = element<HTMLSelectElement>('file');
const versionSelect = element<HTMLSelectElement>('nginx');
const findingsList = element<HTMLOListElement>('findings');
const summary = element<HTMLElement>('summary');
const fixedPane = element<HTMLElement>('fixed');
const diffPane = element<HTMLElement>('diff');
const shareButton = element<HTMLButtonElement>('share');
const shareLink = element<HTMLAnchorElement>('share-link');

let parser: NginxParser | undefined;
const jar = CodeJar(editor, (pane) => (pane.innerHTML = highlightedHtml(pane.textContent ?? '', parser)), { tab: '    ' });

/** Selects `value`, adding it as an option first when the page does not list it (a shared link's own name). */
function choose(select: HTMLSelectElement, value: string): void {
  if (![...select.options].some((option) => option.value === value)) select.add(new Option(value, value));
  select.value = value;
}

function currentLink(): PlaygroundLink {
  return { text: jar.toString(), fileName: fileSelect.value, nginxVersion: versionSelect.value };
}

function findingItem(finding: PlaygroundFinding): HTMLLIElement {
  const item = document.createElement('li');
  item.className = `finding ${finding.severity}`;
  item.dataset.rule = finding.ruleId;
  item.dataset.line = String(finding.line);
  const docs = finding.docs
    ? `<p class="docs">${escapeHtml(finding.docs.description)} <a href="${escapeHtml(finding.docs.url)}" target="_blank" rel="noopener">${escapeHtml(finding.ruleId)} docs</a></p>`
    : '';
  const detail = finding.detail ? `<p class="detail">${escapeHtml(finding.detail)}</p>` : '';
  item.innerHTML =
    `<span class="where">${finding.line}:${finding.column}</span> <span class="severity">${finding.severity}</span> ` +
    `<code class="rule">${escapeHtml(finding.ruleId)}</code><p class="message">${escapeHtml(finding.message)}</p>${detail}${docs}`;
  return item;
}

function render(result: PlaygroundResult): void {
  findingsList.replaceChildren(...result.findings.map(findingItem));
  const count = result.findings.length;
  summary.textContent =
    count === 0 ? 'No findings.' : `${count} finding${count === 1 ? '' : 's'}; ${result.fixesApplied} fixed by the safe fixes.`;
  fixedPane.textContent = result.fixedText;
  diffPane.textContent = result.diff || '(no change)';
}

let checking = 0;

async function check(): Promise<void> {
  const run = ++checking;
  document.body.dataset.state = 'checking';
  const link = currentLink();
  try {
    const result = await checkText(link);
    if (run !== checking) return;
    render(result);
    document.body.dataset.state = 'checked';
  } catch (error) {
    if (run !== checking) return;
    findingsList.replaceChildren();
    summary.textContent = `Not checked: ${error instanceof Error ? error.message : String(error)}`;
    document.body.dataset.state = 'error';
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
function checkSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void check(), CHECK_DELAY_MS);
}

function load(hash: string): void {
  const link = readFragment(hash);
  choose(fileSelect, link.fileName ?? fileSelect.value);
  choose(versionSelect, link.nginxVersion ?? versionSelect.value);
  jar.updateCode(link.text ?? (jar.toString() || DEFAULT_TEXT), false);
  void check();
}

function share(): void {
  const url = new URL(window.location.href);
  url.hash = writeFragment(currentLink());
  shareLink.href = url.toString();
  shareLink.textContent = 'link to this config';
  history.replaceState(null, '', url.hash);
  void navigator.clipboard?.writeText(url.toString()).catch(() => undefined);
}

async function start(): Promise<void> {
  const here = new URL('.', import.meta.url);
  loadWasmFrom({ runtime: new URL('web-tree-sitter.wasm', here).href, grammar: new URL('tree-sitter-nginx.wasm', here).href });
  jar.onUpdate(checkSoon);
  fileSelect.addEventListener('change', () => void check());
  versionSelect.addEventListener('change', () => void check());
  shareButton.addEventListener('click', share);
  window.addEventListener('hashchange', () => load(window.location.hash));
  parser = await loadNginxParser();
  load(window.location.hash);
}

void start();
