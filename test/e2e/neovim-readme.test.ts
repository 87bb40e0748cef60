// The Neovim 0.7 block of docs/editors.md, as written there, in headless Neovim 0.7 (Debian's): it must detect a Dokku
// `nginx.conf.sigil` as nginx, start the server through the `nginx-keepalive` command on PATH (a shim running
// dist/cli.js, which is what `npm link` installs) and show its diagnostics. Only a probe is appended after the block:
// it waits for the diagnostics and writes them out.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliFindings, cliShimDirectory, docsBlock } from './support/docs-block.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const PROBE = `
local result_file = assert(os.getenv('NK_RESULT'))
vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local bufnr = vim.api.nvim_get_current_buf()
    local ok = vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 10)
    local codes = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(codes, d.code .. '@' .. (d.lnum + 1)) end
    local file = io.open(result_file, 'w')
    file:write(vim.fn.json_encode({ ok = ok, filetype = vim.bo[bufnr].filetype, codes = codes }))
    file:close()
    vim.cmd('qall!')
  end,
})
`;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("docs/editors.md's Neovim 0.7 configuration", () => {
  it('detects a Dokku sigil as nginx and shows the same findings as the CLI', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nk-neovim-readme-'));
    dirs.push(dir);
    const bin = cliShimDirectory(dir);
    writeFileSync(path.join(dir, 'init.lua'), docsBlock('neovim-0.7') + PROBE);
    const sigil = path.join(dir, 'nginx.conf.sigil');
    copyFileSync(path.join(repoRoot, 'examples/dokku/nginx.conf.sigil'), sigil);
    const resultFile = path.join(dir, 'result.json');

    const nvim = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', path.join(dir, 'init.lua'), 'nginx.conf.sigil'], {
      cwd: dir,
      encoding: 'utf8',
      // A guard against a hung editor, not a wait: the probe waits on the diagnostics and quits by itself.
      timeout: 45_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NK_RESULT: resultFile, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
    });
    expect(nvim.status, nvim.stderr).toBe(0);
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { ok: boolean; filetype: string; codes: string[] };
    expect(result.filetype).toBe('nginx');
    expect(result.ok).toBe(true);

    expect([...result.codes].sort()).toEqual(cliFindings(sigil, '1.24.0'));
  });
});
