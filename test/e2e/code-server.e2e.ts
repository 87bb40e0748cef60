// The packaged extension in a real VS Code: the VSIX `npm run package` builds is installed into code-server 4.100.3,
// which is driven in headless Chromium on a workspace holding the Dokku example. What the user sees (Problems rows,
// squiggles, the Ctrl+. menu) must match the CLI's findings, and the fixes must reach the file on disk.
// Screenshots for docs/editors.md land in docs/images/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../client/src/server-flags.js';
import { addedLines, blockEnd } from './support/added-lines.js';
import { images, openEditorSession, repoRoot, type EditorSession } from './support/session.js';
import {
  chooseQuickFix, goToLine, hoverProblem, openQuickFixMenu, quickOpen, runCommand, saveActiveEditor, showProblems, waitForProblems,
  waitForProblemGone, waitForSquiggle,
} from './support/workbench.js';

const SIGIL = 'nginx.conf.sigil';
const cliJs = path.join(repoRoot, 'dist/cli.js');

let session: EditorSession;
let workspaceFile: string;
let page: Page;

interface CliMessage {
  ruleId: string;
  line: number;
  message: string;
}

function cliMessages(file: string): CliMessage[] {
  const cli = spawnSync(process.execPath, [cliJs, 'check', '--format', 'json', file], { encoding: 'utf8' });
  const [report] = JSON.parse(cli.stdout) as { messages: CliMessage[] }[];
  return report?.messages ?? [];
}

/** The CLI's findings on `file` as "rule-id@line". */
function cliFindings(file: string): string[] {
  return cliMessages(file).map((m) => `${m.ruleId}@${m.line}`).sort();
}

/** What `nginx-keepalive check --fix` makes of the original example, and what it still reports there. */
function cliFixAll(original: string): { text: string; findings: string[] } {
  const dir = mkdtempSync(path.join(session.root, 'cli-fix-'));
  const file = path.join(dir, SIGIL);
  copyFileSync(original, file);
  spawnSync(process.execPath, [cliJs, 'check', '--fix', file], { encoding: 'utf8' });
  return { text: readFileSync(file, 'utf8'), findings: cliFindings(file) };
}

/** VS Code's IPC sockets in the machine's temporary directory (the session must make its own elsewhere). */
function vscodeSocketsInTmp(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith('vscode-') && name.endsWith('.sock'));
}
let socketsBefore: string[] = [];

beforeAll(async () => {
  socketsBefore = vscodeSocketsInTmp();
  session = await openEditorSession({ files: { [SIGIL]: readFileSync(path.join(repoRoot, 'examples/dokku', SIGIL), 'utf8') } });
  page = session.page;
  workspaceFile = path.join(session.workspace, SIGIL);
});

afterAll(async () => {
  await session?.close();
  // code-server is SIGKILLed, so it never removes its sockets: they must have been made under the session's root.
  expect(vscodeSocketsInTmp().filter((name) => !socketsBefore.includes(name))).toEqual([]);
});

describe('the VSIX in code-server (a real VS Code)', () => {
  it('shows the findings in the Problems panel and as squiggles', async () => {
    const expected = cliFindings(workspaceFile);
    // The two templated includes get a note (information): the app's own nginx.conf.d locations are not checked.
    expect(expected).toEqual(['connection-header-passthrough@94', 'include@137', 'include@68', 'upstream-keepalive@145']);

    await quickOpen(page, SIGIL);
    await showProblems(page);
    const problems = await waitForProblems(page, expected);
    const messages = cliMessages(workspaceFile);
    for (const problem of problems) {
      expect(problem.source).toBe('nginx-keepalive');
      expect(problem.severity).toBe(problem.code === 'include' ? 'info' : 'warning');
      expect(problem.message).toBe(messages.find((m) => m.ruleId === problem.code)?.message);
    }
    expect(problems.find((p) => p.code === 'upstream-keepalive')?.message).toMatch(/has no keepalive/);
    await page.locator('.statusbar-item', { hasText: 'NGINX' }).first().waitFor();

    await goToLine(page, 145);
    await waitForSquiggle(page, 'upstream {{ $.APP }}-{{ $upstream_port }} {');
    await goToLine(page, 94);
    await hoverProblem(page, 'proxy_set_header Connection $http_connection;', 'connection-header-passthrough');
    await page.screenshot({ path: path.join(images, 'vscode-diagnostics.png') });
  });


  it('starts its language server with the node flags and environment of client/src/server-flags.ts', () => {
    // After the first test the server is running: the extension forked it from the installed VSIX.
    const processes = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout.split('\n');
    const servers = processes.filter((line) => line.includes('dist/server.js') && line.includes('--node-ipc'));
    expect(servers.length).toBeGreaterThan(0);
    for (const line of servers) {
      const [pid, ...args] = line.trim().split(' ');
      expect(args).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
      // /proc/<pid>/environ: the environment the process was started with, NUL-separated.
      const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environment).toEqual(expect.arrayContaining(Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`)));
    }
  });
  it('applies the preferred quick fix from the Ctrl+. menu', async () => {
    const before = readFileSync(workspaceFile, 'utf8');
    const titles = await openQuickFixMenu(page, 'upstream-keepalive');
    expect(titles).toContain('Ignore upstream-keepalive on this line');
    await page.screenshot({ path: path.join(images, 'vscode-quickfix.png') });
    // VS Code lists a diagnostic's preferred fix first; the menu's other entries are the ignore comment and fix-all.
    const preferred = titles[0] ?? '';
    expect(preferred).not.toMatch(/^Ignore /);
    await chooseQuickFix(page, preferred);
    await page.locator('.tab.active.dirty').waitFor();
    await waitForProblemGone(page, 'upstream-keepalive');
    await saveActiveEditor(page);

    // `keepalive 16;` lands inside the templated upstream block; the fix only adds lines.
    const lines = readFileSync(workspaceFile, 'utf8').split('\n');
    const keepalive = addedLines(before, lines.join('\n')).filter((line) => line.text.trim() === 'keepalive 16;');
    expect(keepalive).toHaveLength(1);
    const upstream = lines.indexOf('upstream {{ $.APP }}-{{ $upstream_port }} {');
    expect(keepalive[0]!.index).toBeGreaterThan(upstream);
    expect(keepalive[0]!.index).toBeLessThan(blockEnd(lines, upstream));
    const remaining = cliFindings(workspaceFile);
    expect(remaining.filter((finding) => !finding.startsWith('include@'))).toEqual(['connection-header-passthrough@94']);
    await waitForProblems(page, remaining);
  });

  it('fixes the rest with the "Fix all keepalive problems in workspace" command', async () => {
    const { text: fixed, findings: notes } = cliFixAll(path.join(repoRoot, 'examples/dokku', SIGIL));
    // What stays after fixing everything: the notes on the templated includes, nothing else.
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((finding) => finding.startsWith('include@'))).toBe(true);
    await runCommand(page, 'nginx-keepalive: Fix all keepalive problems in workspace');
    await waitForProblems(page, notes);
    // The summary says what changed and offers to save: the connection-header-passthrough fix, in this one file.
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'nginx-keepalive: fixed 1 problem in 1 file' });
    await toast.waitFor({ timeout: 30_000 });
    await toast.getByRole('button', { name: 'Save all' }).click();
    await page.locator('.tab.dirty').waitFor({ state: 'detached' });
    expect(readFileSync(workspaceFile, 'utf8')).toBe(fixed);
    expect(cliFindings(workspaceFile)).toEqual(notes);
  });

  it('shows its output (version and start-up) and restarts the server, which checks the files again', async () => {
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    await runCommand(page, 'nginx-keepalive: Show output');
    const output = page.locator('.part.panel .view-lines');
    await output.filter({ hasText: `nginx-keepalive ${version}: language server started` }).waitFor({ timeout: 30_000 });
    await runCommand(page, 'nginx-keepalive: Restart server');
    await output.filter({ hasText: `nginx-keepalive ${version}: language server restarted` }).waitFor({ timeout: 30_000 });
    // The restarted server publishes the open file's findings again: the notes on its templated includes.
    await showProblems(page);
    await waitForProblems(page, cliFindings(workspaceFile));
  });
});
