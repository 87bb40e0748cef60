// End to end: the built dist/cli.js run as a child process on real files in temp directories.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonResult } from '../../server/src/cli/format-json.js';
import { useTempTrees } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');
const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/** Valid, and with no upstream there is no keepalive to lose: no rule should ever flag it. */
const CLEAN = 'events {}\nhttp {\n  server {\n    listen 80;\n    return 204;\n  }\n}\n';
/** `listen 80` lacks its `;`: nginx's `unexpected "}"`, at the brace, 1:20. */
const BROKEN = 'server { listen 80 }\n';
const COMPOSE = '---\nservices:\n  web:\n    image: "{{ $.IMAGE }}"\n';

beforeAll(() => {
  const wasm = path.join(repoRoot, 'grammars/nginx/tree-sitter-nginx.wasm');
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: build the grammar first`);
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
});

const tree = useTempTrees();

function run(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...inherited, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runJson(cwd: string, args: string[]) {
  const result = run(cwd, ['check', '--format', 'json', ...args]);
  return { ...result, results: JSON.parse(result.stdout) as JsonResult[] };
}

describe('help, version and usage errors', () => {
  it('prints help with the exit codes, exit 0', () => {
    const result = run(repoRoot, ['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('nginx-keepalive check [options] [paths...]');
    expect(result.stdout).toMatch(/info findings never fail the run/);
    expect(result.stderr).toBe('');
  });

  it('prints the package version', () => {
    expect(run(repoRoot, ['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each([
    [['check', '--format', 'xml'], 'unknown format "xml"'],
    [['check', '--no-such-flag'], "unknown option '--no-such-flag'"],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('%j: one line on stderr, exit 2', (args, message) => {
    const result = run(repoRoot, args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('points usage errors at --help', () => {
    expect(run(repoRoot, ['check', '--format', 'xml']).stderr).toMatch(/--help/);
  });
});

describe('check: exit codes and formats', () => {
  it('exits 0 and prints nothing for clean files', () => {
    const root = tree({ 'nginx.conf': CLEAN });
    expect(run(root, ['check'])).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('exits 1 on a syntax error, with a code frame in stylish output and a relative path', () => {
    const root = tree({ 'sites/bad.conf': BROKEN, 'nginx.conf': CLEAN });
    const result = run(root, ['check']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('sites/bad.conf\n  1:20  error');
    expect(result.stdout).toContain('    1 | server { listen 80 }\n      |                    ^');
    expect(result.stdout).toMatch(/\u2716 1 problem \(1 error, 0 warnings, 0 info\)/);
    expect(result.stdout).not.toContain(root);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it("prints ESLint's JSON shape with absolute paths, listing clean files too", () => {
    const root = tree({ 'bad.conf': BROKEN, 'good.conf': CLEAN });
    const { status, results } = runJson(root, []);
    expect(status).toBe(1);
    expect(results.map((result) => result.filePath)).toEqual([path.join(root, 'bad.conf'), path.join(root, 'good.conf')]);
    const [bad, good] = results;
    expect(bad).toMatchObject({ errorCount: 1, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 });
    expect(bad!.messages[0]).toMatchObject({ ruleId: 'syntax', severity: 2, line: 1, column: 20, endLine: 1 });
    expect(good).toMatchObject({ messages: [], errorCount: 0, warningCount: 0 });
  });

  it('colors only when forced or on a terminal, never when NO_COLOR or --no-color says so', () => {
    const root = tree({ 'bad.conf': BROKEN });
    expect(run(root, ['check'], { FORCE_COLOR: '1' }).stdout).toContain('\u001b[31merror');
    expect(run(root, ['check', '--color'], { NO_COLOR: '1' }).stdout).toContain('\u001b[');
    expect(run(root, ['check', '--no-color'], { FORCE_COLOR: '1' }).stdout).not.toContain('\u001b[');
  });
});

describe('check: which files', () => {
  it('walks a directory: nginx.conf.sigil yes; compose.yml.sigil, node_modules and .git no', () => {
    const root = tree({
      'app/nginx.conf.sigil': BROKEN,
      'app/compose.yml.sigil': COMPOSE,
      'app/node_modules/pkg/nginx.conf': BROKEN,
      'app/.git/hooks/x.conf': BROKEN,
      'app/README.md': BROKEN,
      'app/.platform/nginx/conf.d/proxy.conf': CLEAN,
    });
    const { status, results } = runJson(root, ['app']);
    expect(status).toBe(1);
    expect(results.map((result) => path.relative(root, result.filePath))).toEqual([
      'app/.platform/nginx/conf.d/proxy.conf',
      'app/nginx.conf.sigil',
    ]);
  });

  it('expands quoted globs itself', () => {
    const root = tree({ 'deploy/a.conf': CLEAN, 'deploy/x/b.conf': BROKEN, 'deploy/x/c.txt': BROKEN, 'd.conf': BROKEN });
    const { status, results } = runJson(root, ['deploy/**/*.conf']);
    expect(status).toBe(1);
    expect(results.map((result) => path.relative(root, result.filePath))).toEqual(['deploy/a.conf', 'deploy/x/b.conf']);
  });

  it('reports a missing path on stderr, still checks the others, and exits 2 over 1', () => {
    const root = tree({ 'bad.conf': BROKEN });
    const result = run(root, ['check', 'missing.conf', 'bad.conf']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('nginx-keepalive: missing.conf: no such file or directory\n');
    expect(result.stdout).toContain('bad.conf\n  1:20  error');
  });

  it('refuses a FIFO (which would block a read) with one line and checks the rest', () => {
    const root = tree({ 'good.conf': CLEAN });
    const mkfifo = spawnSync('mkfifo', [path.join(root, 'pipe.conf')]);
    expect(mkfifo.status).toBe(0);
    const { status, stderr, results } = { ...runJson(root, ['pipe.conf', 'good.conf']) };
    expect(status).toBe(2);
    expect(stderr).toBe('nginx-keepalive: pipe.conf: not a regular file\n');
    expect(results.map((result) => path.basename(result.filePath))).toEqual(['good.conf']);
  });

  it('skips a binary file with a note, without failing the run', () => {
    // `*.nginx` is claimed by its name alone, so it is read and found binary then (a binary `*.conf` is left out by
    // the walk's content sniff, with the reason under --debug).
    const root = tree({ 'good.conf': CLEAN, 'logo.nginx': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d]) });
    const result = run(root, ['check']);
    expect(result).toEqual({ status: 0, stdout: '', stderr: 'nginx-keepalive: logo.nginx: skipped (binary file)\n' });
  });

  it('follows includes through --path-map and reports findings in the included file', () => {
    const root = tree({
      'root/nginx.conf': 'events {}\nhttp {\n  include /etc/nginx/conf.d/*.conf;\n}\n',
      'deploy/nginx/conf.d/site.conf': BROKEN,
    });
    const unmapped = run(root, ['check', 'root']);
    expect(unmapped.status).toBe(0);
    const mapped = run(root, ['check', 'root', '--path-map', '/etc/nginx=deploy/nginx']);
    expect(mapped.status).toBe(1);
    expect(mapped.stdout).toContain('deploy/nginx/conf.d/site.conf\n  1:20  error');
  });
});
