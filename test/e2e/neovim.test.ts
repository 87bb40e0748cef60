// The language server in a second real editor: headless Neovim 0.7 (Debian's `neovim`) runs `node dist/server.js
// --stdio` through its own LSP client (test/e2e/neovim/init.lua), so nothing here shares code with the VS Code
// client. The findings must match the CLI's on the same file, and a preferred quick fix must edit the file on disk.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addedLines, blockEnd } from './support/added-lines.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const serverJs = path.join(repoRoot, 'dist/server.js');
const initLua = path.join(import.meta.dirname, 'neovim/init.lua');

interface NvimDiagnostic {
  code: string;
  source: string;
  message: string;
  lnum: number;
}

interface NvimResult {
  error?: string;
  filetype: string;
  steps: string[];
  before: NvimDiagnostic[];
  actions: { title: string; kind?: string; isPreferred?: boolean }[];
  applied: string;
  after: NvimDiagnostic[];
}

let tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs = [];
});

function tempCopy(fixture: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nk-neovim-'));
  tempDirs.push(dir);
  const file = path.join(dir, path.basename(fixture));
  copyFileSync(path.join(repoRoot, fixture), file);
  return file;
}

function runNeovim(file: string, rule: string): NvimResult {
  const dir = path.dirname(file);
  const resultFile = path.join(dir, 'result.json');
  const state = path.join(dir, '.nvim');
  mkdirSync(state);
  const nvim = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', initLua, path.basename(file)], {
    cwd: dir,
    encoding: 'utf8',
    // A guard against a hung editor, not a wait: init.lua waits on conditions and quits by itself.
    timeout: 45_000,
    killSignal: 'SIGKILL',
    env: {
      ...process.env,
      NK_SERVER: serverJs,
      NK_RULE: rule,
      NK_RESULT: resultFile,
      // Neovim's LSP log and state go to the temp dir, not the user's ~/.cache and ~/.local.
      XDG_CACHE_HOME: state,
      XDG_STATE_HOME: state,
      XDG_DATA_HOME: state,
      XDG_CONFIG_HOME: state,
    },
  });
  let result: NvimResult;
  try {
    result = JSON.parse(readFileSync(resultFile, 'utf8')) as NvimResult;
  } catch {
    throw new Error(`nvim wrote no result (status ${nvim.status}, signal ${nvim.signal}):\n${nvim.stdout}${nvim.stderr}`);
  }
  if (result.error) throw new Error(`nvim: ${result.error}`);
  expect(nvim.status).toBe(0);
  return result;
}

/** The CLI's findings on `file` as "rule-id@line" (1-based), for comparing with the editor's. */
function cliFindings(file: string): string[] {
  const cli = spawnSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'check', '--format', 'json', file], {
    encoding: 'utf8',
  });
  const [report] = JSON.parse(cli.stdout) as { messages: { ruleId: string; line: number }[] }[];
  return (report?.messages ?? []).map((m) => `${m.ruleId}@${m.line}`).sort();
}

function editorFindings(diagnostics: NvimDiagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code}@${d.lnum + 1}`).sort();
}

describe('Neovim 0.7 as an LSP client of dist/server.js --stdio', () => {
  it('shows the same findings as the CLI and applies the preferred quick fix to the file', () => {
    const file = tempCopy('examples/plain/nginx.conf');
    const original = readFileSync(file, 'utf8');
    const expectedBefore = cliFindings(file);
    expect(expectedBefore).toContain('upstream-keepalive@28');

    const result = runNeovim(file, 'upstream-keepalive');

    expect(result.filetype).toBe('nginx');
    expect(result.steps).toEqual(['diagnostics', 'applied', 'cleared', 'written', 'stopped']);
    expect(editorFindings(result.before)).toEqual(expectedBefore);
    for (const diagnostic of result.before) expect(diagnostic.source).toBe('nginx-keepalive');
    // The quick fix menu offers the fix (preferred) and a way to silence the rule on that line.
    expect(result.actions.filter((a) => a.isPreferred)).toHaveLength(1);
    expect(result.actions.map((a) => a.title)).toContain('Ignore upstream-keepalive on this line');

    // The fix inserts `keepalive 16;` in `upstream app { ... }`, after its least_conn (keepalive-order), and adds
    // what else keepalive needs; besides adding lines it only turns the Connection map's `'' close` into `'' ''`
    // (the map is the location's Connection header: keepalive would otherwise bring connection-map-close out).
    const fixedLines = readFileSync(file, 'utf8').split('\n');
    const closeArm = /^(\s*'')(\s+)close;$/m;
    expect(original).toMatch(closeArm);
    expect(fixedLines.join('\n')).not.toMatch(closeArm);
    const added = addedLines(original.replace(closeArm, "$1$2'';"), fixedLines.join('\n'));
    const keepalive = added.filter((line) => line.text.trim() === 'keepalive 16;');
    expect(keepalive).toHaveLength(1);
    const upstream = fixedLines.indexOf('    upstream app {');
    expect(keepalive[0]!.index).toBeGreaterThan(fixedLines.indexOf('        least_conn;'));
    expect(keepalive[0]!.index).toBeLessThan(blockEnd(fixedLines, upstream));
    expect(upstream).toBeGreaterThan(-1);

    expect(editorFindings(result.after)).not.toContain('upstream-keepalive@28');
    expect(editorFindings(result.after)).toEqual(cliFindings(file));
  });
});
