// The editor configurations the docs show, run as written: a block between `<!-- NAME:start -->` and
// `<!-- NAME:end -->` markers is read from its docs page (docs/editors.md), and the `nginx-keepalive` command it names
// is a shim on PATH that runs this checkout's dist/cli.js (what `npm link` installs). test/docs-links.test.ts holds
// RUN_BLOCKS to the markers the docs hold.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every marker-delimited block a test runs: the page holding it, its marker name and its fence's language. */
export const RUN_BLOCKS = {
  'neovim-0.7': { file: 'docs/editors.md', fence: 'lua' },
  'emacs-eglot': { file: 'docs/editors.md', fence: 'elisp' },
} as const;

/** The code between `<!-- name:start -->` and `<!-- name:end -->` in `text`, without its ```fence. */
export function blockIn(text: string, name: string, fence: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`no ${start} … ${end} block`);
  if (text.indexOf(start, from + 1) !== -1) throw new Error(`more than one ${start} block`);
  const fenced = text.slice(from + start.length, to).trim();
  const open = '```' + fence + '\n';
  if (!fenced.startsWith(open) || !fenced.endsWith('```')) throw new Error(`the ${name} block is not a ${open.trim()} fence`);
  return fenced.slice(open.length, -'```'.length);
}

/** The block a test runs, read from the docs page RUN_BLOCKS names for it. */
export function docsBlock(name: keyof typeof RUN_BLOCKS): string {
  const { file, fence } = RUN_BLOCKS[name];
  return blockIn(readFileSync(path.join(repoRoot, file), 'utf8'), name, fence);
}

/** A directory holding an executable `nginx-keepalive` that runs this checkout's CLI; put it first on PATH. */
export function cliShimDirectory(parent: string): string {
  const bin = path.join(parent, 'bin');
  mkdirSync(bin, { recursive: true });
  const shim = path.join(bin, 'nginx-keepalive');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'dist/cli.js')}" "$@"\n`);
  chmodSync(shim, 0o755);
  return bin;
}

/** What `check --format json --nginx-version <v>` reports for `file`, as sorted "rule-id@line". */
export function cliFindings(file: string, nginxVersion: string): string[] {
  const cli = spawnSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'check', '--format', 'json', '--nginx-version', nginxVersion, file], {
    encoding: 'utf8',
  });
  const messages = (JSON.parse(cli.stdout) as Array<{ messages: Array<{ ruleId: string; line: number }> }>)[0]!.messages;
  return messages.map((m) => `${m.ruleId}@${m.line}`).sort();
}
