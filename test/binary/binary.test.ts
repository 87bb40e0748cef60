// The single executable of `npm run build:binary`: built once here (a few seconds), copied alone into an empty
// temporary directory (no node_modules, no dist/, no wasm file beside it, no NODE_PATH) and run there, as on a host
// without node. What it reports must be what `node dist/cli.js` reports on the same files, from the same directory.
import { spawnSync } from 'node:child_process';
import {
  chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { LspClient, REPO_ROOT, uriOf } from '../support/lsp-client.js';

const BUILT = path.join(REPO_ROOT, 'build/binary/nginx-keepalive');
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DOKKU = readFileSync(path.join(REPO_ROOT, 'examples/dokku/nginx.conf.sigil'), 'utf8');

/** A configuration split over files by include, as under /etc/nginx. */
const MULTI_FILE: Record<string, string> = {
  'etc/nginx.conf': 'events {}\nhttp {\n  include conf.d/*.conf;\n}\n',
  'etc/conf.d/app.conf': [
    'upstream app {',
    '  server 127.0.0.1:3000;',
    '}',
    'server {',
    '  listen 80;',
    '  location / {',
    '    proxy_pass http://app;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'etc/conf.d/pool.conf': [
    'upstream pool {',
    '  server 127.0.0.1:4000;',
    '  keepalive 16;',
    '}',
    'server {',
    '  listen 81;',
    '  location / {',
    '    proxy_pass http://pool;',
    '  }',
    '  location /direct {',
    '    proxy_pass http://127.0.0.1:5000;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'app/nginx.conf.sigil': DOKKU,
};

// Nothing from this process's node setup may help the binary find code or files.
const { NODE_PATH: _path, NODE_OPTIONS: _options, NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...ENV } = process.env;

let dir = '';
let binary = '';

beforeAll(() => {
  const build = spawnSync(process.execPath, ['scripts/build-binary.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:binary failed:\n${build.stdout}${build.stderr}`);
  dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-binary-'));
  binary = path.join(dir, 'nginx-keepalive');
  copyFileSync(BUILT, binary);
  chmodSync(binary, 0o755);
  for (const [relative, text] of Object.entries(MULTI_FILE)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
  }
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => LspClient.stopAll());

type Result = { status: number | null; stdout: string; stderr: string };

function run(program: string[], args: string[], cwd = dir, input?: string): Result {
  const options = { cwd, env: ENV, encoding: 'utf8' as const, maxBuffer: 64 << 20, input };
  const result = spawnSync(program[0]!, [...program.slice(1), ...args], options);
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const runBinary = (args: string[], input?: string) => run([binary], args, dir, input);
const runNodeCli = (args: string[], input?: string) => run([process.execPath, CLI], args, dir, input);

/**
 * What `nginx -T` prints for the etc/ configuration installed as /etc/nginx: every file after a
 * "# configuration file PATH:" line, the main one first, each followed by one LF of nginx's own.
 */
function nginxDump(): string {
  const files = Object.keys(MULTI_FILE).filter((name) => name.startsWith('etc/'));
  return files.map((name) => `# configuration file /etc/nginx/${name.slice(4)}:\n${MULTI_FILE[name]}\n`).join('');
}

/** `check --format json` as "file:line:column rule" rows, files relative to `root`. */
function rows(stdout: string, root = dir): string[] {
  type Message = { ruleId: string; line: number; column: number };
  const files = JSON.parse(stdout) as Array<{ filePath: string; messages: Message[] }>;
  return files.flatMap((file) =>
    file.messages.map((m) => `${path.relative(root, file.filePath)}:${m.line}:${m.column} ${m.ruleId}`),
  );
}

describe('the single executable', () => {
  it('runs from a directory holding nothing but itself and the configurations', () => {
    expect(readdirSync(dir).sort()).toEqual(['app', 'etc', 'nginx-keepalive']);
  });

  it('prints --version and --help', () => {
    expect(runBinary(['--version'])).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = runBinary(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(runNodeCli(['--help']).stdout);
    expect(help.stdout).toMatch(/^nginx-keepalive \S+\n/);
  });

  it('prints the rule list and every rule page embedded in it, as the node CLI does', () => {
    const list = runBinary(['rules']);
    expect(list.status).toBe(0);
    expect(list.stdout).toBe(runNodeCli(['rules']).stdout);
    for (const name of readdirSync(path.join(REPO_ROOT, 'docs/rules'))) {
      const page = runBinary(['rule', name.replace(/\.md$/, '')]);
      expect(page.status, name).toBe(0);
      expect(page.stdout, name).toBe(readFileSync(path.join(REPO_ROOT, 'docs/rules', name), 'utf8'));
    }
  });

  it('checks a configuration split over included files as the node CLI does', () => {
    const fromBinary = runBinary(['check', 'etc', '--format', 'json']);
    expect(fromBinary.stderr).toBe('');
    expect(fromBinary.status).toBe(1);
    expect(rows(fromBinary.stdout)).toEqual([
      'etc/conf.d/app.conf:1:10 upstream-keepalive',
      'etc/conf.d/pool.conf:8:5 connection-header-missing',
      'etc/conf.d/pool.conf:8:5 proxy-http-version',
      'etc/conf.d/pool.conf:11:5 proxy-pass-no-upstream',
    ]);
    expect(fromBinary.stdout).toBe(runNodeCli(['check', 'etc', '--format', 'json']).stdout);
  });

  it('checks an nginx -T dump on stdin (check -) with the paths and lines of the files themselves', () => {
    const fromBinary = runBinary(['check', '-', '--format', 'json'], nginxDump());
    expect(fromBinary.stderr).toBe('');
    expect(fromBinary.status).toBe(1);
    // The dump's files are reported under /etc/nginx, where nginx read them; the same files under etc/ here.
    const fromFiles = rows(runBinary(['check', 'etc', '--format', 'json']).stdout, path.join(dir, 'etc'));
    expect(rows(fromBinary.stdout, '/etc/nginx')).toEqual(fromFiles);
    expect(fromBinary.stdout).toBe(runNodeCli(['check', '-', '--format', 'json'], nginxDump()).stdout);
  });

  it('checks a Dokku nginx.conf.sigil as the node CLI does', () => {
    const fromBinary = runBinary(['check', 'app/nginx.conf.sigil', '--format', 'json']);
    expect(fromBinary.stderr).toBe('');
    const fromNode = runNodeCli(['check', 'app/nginx.conf.sigil', '--format', 'json']);
    expect(fromBinary.status).toBe(fromNode.status);
    expect(fromBinary.stdout).toBe(fromNode.stdout);
    const found = rows(fromBinary.stdout).map((row) => row.split(' ')[1]);
    expect(found).toEqual(expect.arrayContaining(['upstream-keepalive', 'connection-header-passthrough']));
  });

  it('runs --jobs N on one thread, even with a worker bundle beside it, with the same report', () => {
    // A cli-worker.js beside the node CLI is started for --jobs N on over a megabyte of text (MIN_PARALLEL_CHARS);
    // beside the binary one that fails must never be, so a run that tried would end in an internal error.
    const jobs = path.join(dir, 'jobs');
    mkdirSync(path.join(jobs, 'sites'), { recursive: true });
    linkSync(binary, path.join(jobs, 'nginx-keepalive'));
    writeFileSync(path.join(jobs, 'cli-worker.js'), "throw new Error('the single executable must not start a worker');\n");
    const upstream = (i: number) => `upstream u${i} { server 127.0.0.1:${1 + i}; keepalive 4; }\n`;
    const site = Array.from({ length: 7000 }, (_, i) => upstream(i)).join('');
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(path.join(jobs, 'sites', `${name}.conf`), site);
    const binaryHere = path.join(jobs, 'nginx-keepalive');
    const oneThread = run([binaryHere], ['check', 'sites', '--format', 'json', '--jobs', '1'], jobs);
    const asked = run([binaryHere], ['check', 'sites', '--format', 'json', '--jobs', '4'], jobs);
    expect(asked.stderr).toBe('');
    expect(asked).toEqual(oneThread);
    expect(asked.status).toBe(0);
    rmSync(jobs, { recursive: true, force: true });
  });

  it('answers initialize over stdio with `lsp --stdio` and publishes the findings of an open sigil', async () => {
    const workspace = path.join(dir, 'app');
    const client = await LspClient.start({ executable: binary, cwd: dir, env: ENV, workspace });
    expect(client.initializeResult.serverInfo).toEqual({ name: 'nginx-keepalive', version: VERSION });
    expect(client.initializeResult.capabilities.textDocumentSync).toBeDefined();
    const doc = client.open(path.join(workspace, 'nginx.conf.sigil'), DOKKU);
    expect(doc.uri).toBe(uriOf(path.join(workspace, 'nginx.conf.sigil')));
    const published = await client.diagnosticsFor(doc.uri, doc.version);
    const codes = published.diagnostics.map((diagnostic) => diagnostic.code);
    expect(codes).toEqual(expect.arrayContaining(['upstream-keepalive', 'connection-header-passthrough']));
    expect(await client.stop()).toBe(0);
    expect(client.stderr).toBe('');
  });
});
