// The editor configurations the README shows, run as written: a block between `<!-- NAME:start -->` and
// `<!-- NAME:end -->` markers is read from README.md, and the `nginx-keepalive` command it names is a shim on PATH
// that runs this checkout's dist/cli.js (what `npm link` installs).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The code between the README's `<!-- name:start -->` and `<!-- name:end -->` markers, without its ```fence. */
export function readmeBlock(name: string, fence: string): string {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from === -1 || to < from) throw new Error(`README.md has no ${start} … ${end} block`);
  const fenced = readme.slice(from + start.length, to).trim();
  const open = '```' + fence + '\n';
  if (!fenced.startsWith(open) || !fenced.endsWith('```')) throw new Error(`the ${name} block is not a ${open.trim()} fence`);
  return fenced.slice(open.length, -'```'.length);
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
