// What a one-file `check` pays before it reads the file (issue 30's start-up goal): dist/cli.js runs the bundle from
// V8's code cache (scripts/cli-loader.mjs), and the modules only other commands need (prove's HTTP and process
// modules, the worker pool, the GitLab format's hashing) are not loaded. The output never
// depends on the cache: a missing, corrupt or unwritable one gives the same report.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LspClient } from '../support/lsp-client.js';
import { CLI, runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();
const CONFIG = 'http {\n  upstream app {\n    server 127.0.0.1:3000;\n  }\n  server {\n    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n';

function cacheFiles(cacheHome: string): string[] {
  try {
    return readdirSync(path.join(cacheHome, 'nginx-keepalive', 'code-cache')).map((name) => path.join(cacheHome, 'nginx-keepalive', 'code-cache', name));
  } catch {
    return [];
  }
}

describe('the code cache', () => {
  it('is written by the first run and read, not rewritten, by the next; the report is the same', () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const env = { XDG_CACHE_HOME: cacheHome };
    const first = runCli(dir, ['check', '--format', 'json', 'nginx.conf'], env);
    expect(first.stdout).toContain('upstream-keepalive');
    const files = cacheFiles(cacheHome);
    expect(files).toHaveLength(1);
    expect(path.basename(files[0]!)).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.bin$`));
    const written = readFileSync(files[0]!);
    expect(written.length).toBeGreaterThan(10_000);
    const before = statSync(files[0]!).mtimeMs;
    const second = runCli(dir, ['check', '--format', 'json', 'nginx.conf'], env);
    expect(second).toEqual(first);
    // V8 accepted it: nothing was written again.
    expect(statSync(files[0]!).mtimeMs).toBe(before);
    expect(readFileSync(files[0]!).equals(written)).toBe(true);
  });

  it('is kept apart for runs with node flags of their own: each kind of run reads its own, neither rewrites', () => {
    // V8 rejects a cache made under other flags: one shared file was overwritten by each kind of run in turn.
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const plain = { XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: '' };
    const flagged = { XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: '--max-semi-space-size=4' };
    const first = runCli(dir, ['check', 'nginx.conf'], plain);
    expect(runCli(dir, ['check', 'nginx.conf'], flagged)).toEqual(first);
    const files = cacheFiles(cacheHome).sort();
    expect(files.map((file) => path.basename(file))).toEqual([
      expect.stringMatching(new RegExp(`^cli-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}\\.bin$`)),
      expect.stringMatching(/^cli-[0-9a-f]{16}-[^-]+-[^-]+\.bin$/),
    ]);
    const stamps = () => files.map((file) => statSync(file).mtimeMs);
    const before = stamps();
    expect(runCli(dir, ['check', 'nginx.conf'], plain)).toEqual(first);
    expect(runCli(dir, ['check', 'nginx.conf'], flagged)).toEqual(first);
    expect(stamps()).toEqual(before);
  });

  it("removes all but the three newest other builds' caches when it is written; other versions', flags' and bundles' stay", () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const env = { XDG_CACHE_HOME: cacheHome };
    const first = runCli(dir, ['check', 'nginx.conf'], env);
    const [own] = cacheFiles(cacheHome);
    const cacheDir = path.dirname(own!);
    const hash = /^cli-([0-9a-f]{16})-/.exec(path.basename(own!))![1]!;
    // Five other builds, written a day apart (the first the oldest); the second has two caches (a flagged run's too).
    const builds = ['0000000000000001', '0000000000000002', '0000000000000003', '0000000000000004', '0000000000000005'];
    const day = 24 * 3600;
    const now = Date.now() / 1000;
    const others = builds.flatMap((build, at) => {
      const names = [`cli-${build}-v20.0.0-x64.bin`, ...(at === 1 ? [`cli-${build}-v20.0.0-x64-0a1b2c3d.bin`] : [])];
      for (const name of names) {
        writeFileSync(path.join(cacheDir, name), 'x');
        utimesSync(path.join(cacheDir, name), now - (10 - at) * day, now - (10 - at) * day);
      }
      return names;
    });
    const kept = [`cli-${hash}-v18.0.0-x64.bin`, `cli-${hash}-v20.0.0-x64-0a1b2c3d.bin`, 'cli-worker-0000000000000001-v20.0.0-x64.bin', 'notes.txt'];
    for (const name of kept) writeFileSync(path.join(cacheDir, name), 'x');
    const names = () => cacheFiles(cacheHome).map((file) => path.basename(file)).sort();
    expect(runCli(dir, ['check', 'nginx.conf'], env)).toEqual(first);
    // Read, not written: nothing was removed.
    expect(names()).toEqual([...others, ...kept, path.basename(own!)].sort());
    writeFileSync(own!, Buffer.alloc(4096, 7));
    expect(runCli(dir, ['check', 'nginx.conf'], env)).toEqual(first);
    const newest = others.filter((name) => !name.includes(builds[0]!) && !name.includes(builds[1]!));
    expect(names()).toEqual([...newest, ...kept, path.basename(own!)].sort());
  });

  it('is rejected and written again when it is corrupt, with the same report', () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const env = { XDG_CACHE_HOME: cacheHome };
    const first = runCli(dir, ['check', 'nginx.conf'], env);
    const [file] = cacheFiles(cacheHome);
    writeFileSync(file!, Buffer.alloc(4096, 7));
    expect(runCli(dir, ['check', 'nginx.conf'], env)).toEqual(first);
    expect(readFileSync(file!).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(runCli(dir, ['check', 'nginx.conf'], env)).toEqual(first);
  });

  it('is neither read nor written with NK_NO_CODE_CACHE=1, nor needed where it cannot be written', () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const reference = runCli(dir, ['check', 'nginx.conf'], { XDG_CACHE_HOME: cacheHome, NK_NO_CODE_CACHE: '1' });
    expect(reference.stdout).toContain('upstream-keepalive');
    expect(cacheFiles(cacheHome)).toEqual([]);
    const readOnly = tree({});
    chmodSync(readOnly, 0o500);
    try {
      // As root the directory is still writable; the report must be the same either way.
      expect(runCli(dir, ['check', 'nginx.conf'], { XDG_CACHE_HOME: readOnly })).toEqual(reference);
    } finally {
      chmodSync(readOnly, 0o700);
    }
    expect(runCli(dir, ['check', 'nginx.conf'], { XDG_CACHE_HOME: path.join(dir, 'nginx.conf') })).toEqual(reference);
  });
});

describe("the analysis workers' code cache", () => {
  it('is written when a --jobs 2 run closes its worker, and read, not rewritten, by the next run; the report is the same', () => {
    // Over a megabyte of text (MIN_PARALLEL_CHARS), so a worker really starts.
    const site = Array.from({ length: 5000 }, (_, i) => `upstream u${i} { server 127.0.0.1:${1 + i}; keepalive 4; }\n`).join('');
    const dir = tree({ 'a.conf': site, 'b.conf': site, 'c.conf': site, 'd.conf': site });
    const cacheHome = tree({});
    const env = { XDG_CACHE_HOME: cacheHome };
    const args = ['check', '.', '--context', 'http', '--format', 'json', '--jobs', '2'];
    const first = runCli(dir, args, env);
    expect(first.stderr).toBe('');
    const worker = () => cacheFiles(cacheHome).filter((file) => path.basename(file).startsWith('cli-worker-'));
    expect(worker()).toHaveLength(1);
    expect(path.basename(worker()[0]!)).toMatch(new RegExp(`^cli-worker-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.bin$`));
    const before = statSync(worker()[0]!).mtimeMs;
    expect(runCli(dir, args, env)).toEqual(first);
    expect(statSync(worker()[0]!).mtimeMs).toBe(before);
  });
});

describe('the language server', () => {
  it('runs from its own code cache, written by the first server and read by the next, with the same diagnostics', async () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    const cacheHome = tree({});
    const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
    const diagnostics = async () => {
      const client = await LspClient.start({ workspace: dir, env });
      const doc = client.open(path.join(dir, 'nginx.conf'), CONFIG);
      const published = await client.diagnosticsFor(doc.uri, doc.version);
      await client.stop();
      return published.diagnostics.map((d) => `${d.code}@${d.range.start.line}`);
    };
    const first = await diagnostics();
    expect(first).toContain('upstream-keepalive@1');
    const files = cacheFiles(cacheHome);
    expect(files.map((file) => path.basename(file))).toEqual([expect.stringMatching(/^server-[0-9a-f]{16}-/)]);
    const before = statSync(files[0]!).mtimeMs;
    expect(await diagnostics()).toEqual(first);
    expect(statSync(files[0]!).mtimeMs).toBe(before);
  });
});

describe('a one-file check', () => {
  it("calls no ICU-backed API in its bundle or the language server's", () => {
    // The first localeCompare, Intl object or toLocale* call of a process loads ICU data out of node's binary:
    // ~14 ms of a one-file check and megabytes of resident memory (engine/analyze.ts compares rule ids by code unit).
    for (const bundle of ['cli-main.cjs', 'server-main.cjs']) {
      const text = readFileSync(path.join(path.dirname(CLI), bundle), 'latin1');
      expect(text.match(/\.localeCompare\(|\bIntl\.|\.toLocale[A-Za-z]*\(/g), bundle).toBeNull();
    }
  });

  it('loads none of the modules only other commands use', () => {
    const dir = tree({ 'nginx.conf': CONFIG });
    // A preloaded script records the built-in modules the run loaded, at its exit.
    const record = path.join(dir, 'loaded.txt');
    const hook = path.join(dir, 'record-modules.cjs');
    writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, process.moduleLoadList.join('\\n')));\n`);
    for (const format of ['stylish', 'json']) {
      // The report goes to a file, as in `check > report.json`: a pipe as stdout would load node:net for the pipe.
      const out = path.join(dir, 'report.txt');
      const fd = openSync(out, 'w');
      try {
        spawnSync(process.execPath, [CLI, 'check', '--format', format, 'nginx.conf'], {
          cwd: dir,
          stdio: ['ignore', fd, 'ignore'],
          env: { ...process.env, NODE_OPTIONS: `--require ${hook}` },
        });
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(out, 'utf8')).toContain('upstream-keepalive');
      const loaded = readFileSync(record, 'utf8').split('\n');
      // tty (and net with it) is stdin's terminal check's; timers/promises was the worker pool's.
      for (const name of ['http', 'child_process', 'worker_threads', 'crypto', 'tty', 'net', 'timers/promises']) {
        expect(loaded, `${format}: ${name}`).not.toContain(`NativeModule ${name}`);
      }
      // The loader is CommonJS: node's ES module loader (node:fs/promises, node:fs's ES facade) never starts.
      expect(loaded, format).not.toContain('NativeModule internal/modules/esm/loader');
      expect(loaded, format).not.toContain('NativeModule internal/fs/promises');
    }
  });
});
