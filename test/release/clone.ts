// A temporary clone of this repository holding the working tree as it is (the changes not yet committed are
// committed in the clone), so a release can be built from a clean tree without touching this checkout. node_modules
// is a symbolic link to this checkout's: nothing is installed.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/lsp-client.js';

function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The clone's root, in a new temporary directory `parent` (remove it when done). */
export function cloneWorkingTree(): { parent: string; root: string } {
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
  git(root, ['add', '-A']);
  git(root, ['commit', '--quiet', '--allow-empty', '-m', 'the working tree']);
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  // .gitignore's "node_modules/" matches directories only, not this link.
  appendFileSync(path.join(root, '.git/info/exclude'), '/node_modules\n');
  return { parent, root };
}
