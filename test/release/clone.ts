// A temporary clone of this repository holding the working tree as it is (the changes not yet committed are
// committed in the clone), so a release can be built from a clean tree without touching this checkout. node_modules
// is a symbolic link to this checkout's: nothing is installed.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/lsp-client.js';

function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The clone's root, in a new temporary directory `parent` (remove it when done). */
export function cloneWorkingTree(options: { emptyUnreleased?: boolean } = {}): { parent: string; root: string } {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'nk-release-'));
  const root = path.join(parent, 'repo');
  git(parent, ['clone', '--quiet', REPO_ROOT, root]);
  const changed = git(REPO_ROOT, ['ls-files', '-z', '--modified', '--others', '--exclude-standard']).split('\0').filter(Boolean);
  for (const file of changed) {
    const from = path.join(REPO_ROOT, file);
    const to = path.join(root, file);
    if (existsSync(from)) {
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to);
    } else {
      rmSync(to, { force: true });
    }
  }
  // The repository's own Unreleased entries vary from commit to commit: a test of what a bump does with them starts
  // from none.
  if (options.emptyUnreleased) emptyUnreleased(path.join(root, 'CHANGELOG.md'));
  git(root, ['add', '-A']);
  git(root, ['commit', '--quiet', '--allow-empty', '-m', 'the working tree']);
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  // .gitignore's "node_modules/" matches directories only, not this link.
  appendFileSync(path.join(root, '.git/info/exclude'), '/node_modules\n');
  return { parent, root };
}

function emptyUnreleased(file: string): void {
  const text = readFileSync(file, 'utf8');
  const head = '## [Unreleased]\n';
  const start = text.indexOf(head);
  const next = text.indexOf('\n## [', start + head.length);
  if (start === -1 || next === -1) throw new Error(`${file}: no Unreleased section followed by a release`);
  writeFileSync(file, `${text.slice(0, start + head.length)}${text.slice(next)}`);
}
