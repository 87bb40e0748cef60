// File names in the `---`/`+++` headers of `check --fix-dry-run` and `format --diff` are quoted as git quotes them:
// a tab, a newline, a terminal escape or a non-ASCII letter in a name neither reaches the terminal raw nor makes
// `git apply` or `patch -p1` patch another file (or read a forged header). Real files, the built CLI, real git and
// GNU patch; the patch applied for real must give what `--fix` / `format` write.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quotePatchName } from '../../server/src/util/unified-diff.js';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { makePrefix, requireNginx } from '../support/nginx.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();
let copies: string[] = [];
afterEach(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  copies = [];
});

const NAMES = ['tab\there.conf', 'new\nline.conf', 'esc\x1b[31mred.conf', 'quote"back\\slash.conf', 'café.conf'];
const FIXABLE = readFileSync(path.join(FIXTURES_DIR, 'upstream-keepalive/invalid-balancer-last.conf'), 'utf8');
const MESSY = 'http {\nserver  {\n  listen   80 ;\n}\n}\n';

function copyOf(root: string): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-patch-'));
  copies.push(copy);
  cpSync(root, copy, { recursive: true });
  return copy;
}

function run(program: string, args: string[], cwd: string, input: string) {
  const result = spawnSync(program, args, { cwd, input, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const contents = (root: string) => Object.fromEntries(readdirSync(root).sort().map((name) => [name, readFileSync(path.join(root, name), 'utf8')]));

/** The patch applies with git and with GNU patch, and applied gives what the writing command writes. */
function expectPatchOf(root: string, patch: string, write: (copy: string) => void): void {
  expect(patch).not.toContain('\x1b');
  const headers = patch.split('\n').filter((line) => line.startsWith('--- ') || line.startsWith('+++ '));
  expect(headers).toHaveLength(2 * NAMES.length);
  for (const name of NAMES) expect(headers).toContain(`--- ${quotePatchName(`a/${name}`)}`);
  expect(run('git', ['apply', '--check', '-'], copyOf(root), patch)).toMatchObject({ status: 0 });
  expect(run('patch', ['-p1', '--dry-run'], copyOf(root), patch)).toMatchObject({ status: 0 });
  const written = copyOf(root);
  write(written);
  const viaGit = copyOf(root);
  expect(run('git', ['apply', '-'], viaGit, patch).status).toBe(0);
  const viaPatch = copyOf(root);
  expect(run('patch', ['-p1'], viaPatch, patch).status).toBe(0);
  expect(contents(viaGit)).toEqual(contents(written));
  expect(contents(viaPatch)).toEqual(contents(written));
  expect(contents(written)).not.toEqual(contents(root));
}

describe('file names in patch headers', () => {
  it('are quoted as git does', () => {
    expect(quotePatchName('a/plain name-1.conf')).toBe('a/plain name-1.conf');
    expect(quotePatchName('a/t\tn\ne\x1b"\\é\x7f')).toBe('"a/t\\tn\\ne\\033\\"\\\\\\303\\251\\177"');
  });

  it('name the real files in check --fix-dry-run', () => {
    const root = tree(Object.fromEntries(NAMES.map((name) => [name, FIXABLE])));
    const dryRun = runCli(root, ['check', '--fix-dry-run', '.']);
    expect(dryRun.status).toBe(0);
    expectPatchOf(root, dryRun.stdout, (copy) => expect(runCli(copy, ['check', '--fix', '.']).status).toBe(0));
  });

  it('name the real files in format --diff', () => {
    const root = tree(Object.fromEntries(NAMES.map((name) => [name, MESSY])));
    const diff = runCli(root, ['format', '--diff', '.']);
    expect(diff.status).toBe(1);
    expectPatchOf(root, diff.stdout, (copy) => expect(runCli(copy, ['format', '.']).status).toBe(0));
  });

  it('name the real files of an nginx -T dump in check --fix-dry-run -', () => {
    // A dump names each file on a line of its own, so no newline here.
    const names = ['tab\there.conf', 'esc\x1b[31mred.conf'];
    const prefix = makePrefix();
    try {
      const sites = path.join(prefix.dir, 'sites');
      mkdirSync(sites);
      // One upstream name per file: nginx refuses a duplicate.
      names.forEach((name, index) => writeFileSync(path.join(sites, name), FIXABLE.replaceAll('app', `app${index}`)));
      const main = path.join(prefix.dir, 'nginx.conf');
      writeFileSync(main, `pid ${prefix.dir}/nginx.pid;\nevents {}\nhttp {\n    ${prefix.httpTempPaths}\n    include sites/*.conf;\n}\n`);
      const nginx = spawnSync(requireNginx(), ['-T', '-q', '-p', `${prefix.dir}/`, '-e', `${prefix.dir}/logs/error.log`, '-c', main], { encoding: 'utf8' });
      expect(nginx.status, nginx.stderr).toBe(0);
      const dryRun = runCli(prefix.dir, ['check', '--fix-dry-run', '-'], {}, nginx.stdout);
      expect(dryRun.stdout).not.toContain('\x1b');
      const headers = dryRun.stdout.split('\n').filter((line) => line.startsWith('--- '));
      // Run where the files are: paths relative to it, with git's prefixes.
      expect(headers.sort(), dryRun.stderr).toEqual(names.map((name) => `--- ${quotePatchName(`a/sites/${name}`)}`).sort());
      expect(run('git', ['apply', '--check', '-'], prefix.dir, dryRun.stdout)).toMatchObject({ status: 0 });
      expect(run('patch', ['-p1', '--dry-run'], prefix.dir, dryRun.stdout)).toMatchObject({ status: 0 });
    } finally {
      prefix.remove();
    }
  });
});
