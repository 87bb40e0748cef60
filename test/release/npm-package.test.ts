// The npm package as a user gets it: packed from dist/ (built by the global setup) by scripts/pack-npm.mjs, checked
// by `npm publish --dry-run`, then installed from its tarball with `npm install --global` into an empty prefix,
// offline, and run from an empty directory with this checkout on no path (no NODE_PATH, PATH holding only the
// prefix's bin, node's directory and the system's).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, REPO_ROOT, uriOf } from '../support/lsp-client.js';

const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TARBALL_FILES = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'dist/cli-main.cjs',
  'dist/cli-worker.cjs',
  'dist/cli-worker.js',
  'dist/cli.js',
  'dist/nginx-docs.json',
  'dist/package.json',
  'dist/server-main.cjs',
  'dist/server.js',
  'dist/tree-sitter-nginx.wasm',
  'dist/web-tree-sitter.wasm',
  'package.json',
  'schemas/nginx-keepalive.schema.json',
];
const APP = [
  'http {',
  '    upstream app {',
  '        server 127.0.0.1:3000;',
  '    }',
  '    server {',
  '        listen 80;',
  '        location / {',
  '            proxy_pass http://app;',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

const { NODE_PATH: _path, NODE_OPTIONS: _options, NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...BASE_ENV } = process.env;

let dir = '';
let tarball = '';
let prefix = '';
let cwd = '';
let env: NodeJS.ProcessEnv = {};
let bin = '';
let packOutput = '';

function npm(args: string[], workdir: string): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd: workdir, env, encoding: 'utf8' });
}

function cli(args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(bin, args, { cwd, env, encoding: 'utf8', input });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nk-npm-package-'));
  prefix = path.join(dir, 'prefix');
  cwd = path.join(dir, 'work');
  mkdirSync(prefix);
  mkdirSync(cwd);
  // npm's cache and configuration in the temporary directory too: nothing of this machine's npm setup is used.
  env = {
    ...BASE_ENV,
    HOME: dir,
    npm_config_cache: path.join(dir, 'npm-cache'),
    npm_config_userconfig: path.join(dir, 'npmrc'),
    npm_config_update_notifier: 'false',
    PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
  };
  const pack = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/pack-npm.mjs'), '--no-build', '--publish-dry-run', '--out-dir', dir],
    { cwd: REPO_ROOT, env, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`pack-npm failed:\n${pack.stdout}${pack.stderr}`);
  packOutput = pack.stdout;
  tarball = path.join(dir, `nginx-keepalive-${VERSION}.tgz`);
  const install = npm(['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], cwd);
  if (install.status !== 0) throw new Error(`npm install --global failed:\n${install.stdout}${install.stderr}`);
  bin = path.join(prefix, 'bin', 'nginx-keepalive');
  writeFileSync(path.join(cwd, 'nginx.conf'), APP);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the npm package', () => {
  it('holds only what runs, with a manifest npm publishes and no dependencies', () => {
    expect(packOutput).toContain(`nginx-keepalive-${VERSION}.tgz`);
    const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    expect(listing.stdout.split('\n').filter(Boolean).map((entry) => entry.replace(/^package\//, '')).sort()).toEqual(TARBALL_FILES);
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'nginx-keepalive', version: VERSION, bin: { 'nginx-keepalive': 'dist/cli.js' }, engines: { node: '>=20' } });
    for (const field of ['private', 'dependencies', 'devDependencies', 'scripts', 'contributes', 'main', 'browser', 'publisher']) {
      expect(manifest, field).not.toHaveProperty(field);
    }
    const readme = spawnSync('tar', ['-xzOf', tarball, 'package/README.md'], { encoding: 'utf8' }).stdout;
    expect(readme).toBe(readFileSync(path.join(REPO_ROOT, 'server/NPM.md'), 'utf8'));
  });

  it('ships the program files pre-commit installs too (its node hook packs the repository itself)', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const [packed] = JSON.parse(pack.stdout) as { files: { path: string }[] }[];
    const program = (files: string[]) => files.filter((file) => !['README.md', 'CHANGELOG.md'].includes(file)).sort();
    expect(program(packed?.files.map((file) => file.path) ?? [])).toEqual(program(TARBALL_FILES));
  });

  it('bundles everything: the shipped scripts import node\'s built-in modules and each other only', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    for (const bundle of ['dist/cli.js', 'dist/cli-main.cjs', 'dist/cli-worker.js', 'dist/cli-worker.cjs', 'dist/server.js', 'dist/server-main.cjs']) {
      const text = readFileSync(path.join(REPO_ROOT, bundle), 'utf8');
      const specifiers = [...text.matchAll(/(?:\brequire\(|\bimport\(|\bfrom ?)"([^"\n]{1,200})"/g)].map((match) => match[1] ?? '');
      expect(specifiers.length, bundle).toBeGreaterThan(0);
      const foreign = specifiers.filter((name) => !builtins.has(name) && name !== './server.js' && !/[\s$`?,]/.test(name));
      expect(foreign, bundle).toEqual([]);
    }
  });

  it('is installed from the tarball alone: the command runs the prefix\'s copy', () => {
    const installed = realpathSync(bin);
    expect(installed).toBe(realpathSync(path.join(prefix, 'lib/node_modules/nginx-keepalive/dist/cli.js')));
    expect(installed.startsWith(realpathSync(REPO_ROOT))).toBe(false);
    const version = cli(['--version']);
    expect(version.stdout.trim()).toBe(VERSION);
  });

  it('checks: reports the upstream without keepalive, with its fix, and exits 1', () => {
    const result = cli(['check', '--format', 'json', 'nginx.conf']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const [file] = JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[];
    expect(file?.messages.map((message) => message.ruleId)).toEqual(['upstream-keepalive']);
    const fixed = cli(['check', '--fix-dry-run', 'nginx.conf']);
    expect(fixed.stdout).toContain('+        keepalive 16;');
  });

  it('checks with --jobs 2 through the worker bundle, with the report of one thread', () => {
    // Over a megabyte of text (MIN_PARALLEL_CHARS), so the installed dist/cli-worker.js really starts.
    const sites = path.join(cwd, 'sites');
    mkdirSync(sites, { recursive: true });
    const site = Array.from({ length: 7000 }, (_, i) => `upstream u${i} { server 127.0.0.1:${1 + i}; keepalive 4; }\n`).join('');
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(path.join(sites, `${name}.conf`), site);
    const one = cli(['check', 'sites', '--context', 'http', '--format', 'json', '--jobs', '1']);
    const two = cli(['check', 'sites', '--context', 'http', '--format', 'json', '--jobs', '2']);
    expect(two.stderr).toBe('');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    rmSync(sites, { recursive: true, force: true });
  });

  it('prints a rule\'s documentation and the rule list', () => {
    const rule = cli(['rule', 'upstream-keepalive']);
    expect(rule.status).toBe(0);
    expect(rule.stdout).toBe(readFileSync(path.join(REPO_ROOT, 'docs/rules/upstream-keepalive.md'), 'utf8'));
    const rules = cli(['rules']);
    expect(rules.status).toBe(0);
    expect(rules.stdout).toContain('proxy-set-header-inheritance');
  });

  it('formats', () => {
    const file = path.join(cwd, 'unformatted.conf');
    writeFileSync(file, APP.replace(/^ +/gm, ''));
    expect(cli(['format', '--check', 'unformatted.conf']).status).toBe(1);
    const formatted = cli(['format', 'unformatted.conf']);
    expect(formatted.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(APP);
  });

  it('proves: runs the configuration in a sandboxed real nginx and counts the upstream connections before and after', () => {
    // nginx needs an events{} block to start; the prefix's copy finds /usr/sbin/nginx as a user's would.
    writeFileSync(path.join(cwd, 'prove.conf'), `events {}\n${APP}`);
    const result = cli(['prove', '--requests', '40', '--format', 'json', 'prove.conf']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { locations: { before: { connections: number }; after: { connections: number } }[] };
    expect(report.locations).toHaveLength(1);
    expect(report.locations[0]!.before.connections).toBeGreaterThanOrEqual(36);
    expect(report.locations[0]!.after.connections).toBeLessThanOrEqual(8);
  });

  it('answers initialize over stdio with `lsp --stdio` and publishes the findings of an open file', async () => {
    const client = await LspClient.start({ executable: bin, cwd, env, workspace: cwd });
    expect(client.initializeResult.serverInfo).toEqual({ name: 'nginx-keepalive', version: VERSION });
    const doc = client.open(path.join(cwd, 'nginx.conf'), APP);
    expect(doc.uri).toBe(uriOf(path.join(cwd, 'nginx.conf')));
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    expect(published.diagnostics.map((diagnostic) => diagnostic.code)).toContain('upstream-keepalive');
    // A directive's hover quotes nginx.org's reference, which the installed server reads from dist/nginx-docs.json.
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: doc.uri },
      position: { line: 1, character: 6 },
    });
    expect(hover?.contents.value).toContain('upstream name { ... }');
    expect(await client.stop()).toBe(0);
    expect(client.stderr).toBe('');
  });
});
