// Nothing in a config or a workspace is ever executed, and nothing outside the checked paths (and the --path-map
// targets) is ever opened. Checked two ways: the sources use no API that runs code or programs (outside the allowed
// places: the CLI's own bundled worker, `prove`'s nginx, and the editor command that runs `prove`), and a real run
// under strace opens no file outside and starts no program, on a workspace built to tempt it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, reported, useTempTrees } from './support.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tree = useTempTrees();

/** APIs that run code or programs. */
const DANGEROUS: Array<{ name: string; pattern: RegExp }> = [
  { name: 'child_process', pattern: /['"](node:)?child_process['"]/ },
  { name: 'eval', pattern: /(?<![\w$.])eval\s*\(/ },
  { name: 'new Function', pattern: /\bnew\s+Function\s*\(/ },
  { name: 'vm', pattern: /['"](node:)?vm['"]/ },
  { name: 'worker_threads', pattern: /['"](node:)?worker_threads['"]/ },
  { name: 'eval: true (a Worker running a string)', pattern: /\beval\s*:\s*true/ },
  { name: 'process.binding / dlopen', pattern: /process\s*\.\s*(binding|dlopen)\b/ },
  { name: 'import() of a computed name', pattern: /\bimport\s*\(\s*(?!['"])/ },
  { name: 'require() of a computed name', pattern: /\brequire\s*\(\s*(?!['"])/ },
  { name: 'a timer running a string', pattern: /\bset(Timeout|Interval|Immediate)\s*\(\s*['"`]/ },
];

/** Where a dangerous API is allowed, and why. */
const ALLOWED: Record<string, { name: string; why: string }> = {
  'server/src/cli/parallel/worker-pool.ts': { name: 'worker_threads', why: "starts dist/cli-worker.js, the CLI's own bundle" },
  'server/src/cli/parallel/worker.ts': { name: 'worker_threads', why: 'is that worker: receives documents as data' },
  'server/src/cli/prove/nginx-process.ts': {
    name: 'child_process',
    why: '`prove` runs the local nginx binary on a sandboxed copy (its own command: check and the language server never do)',
  },
  'server/src/lsp/idle-collection.ts': {
    name: 'vm',
    why: "reads V8's own `gc` from a fresh context (the constant text 'gc'), to collect garbage when typing pauses",
  },
  'client/src/prove-run.ts': {
    name: 'child_process',
    why: 'the editor\'s "Prove connection reuse" runs the bundled CLI\'s `prove` (trusted workspaces only, not in the browser build)',
  },
};

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(repoRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
}

/** The code of a file with `//` line comments and block comments removed (they may name what they avoid). */
function codeOf(file: string): string {
  return readFileSync(path.join(repoRoot, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('the sources', () => {
  it('use no API that runs code or programs, outside the allowed worker pool', () => {
    const files = [...sourceFiles('server/src'), ...sourceFiles('client/src')];
    expect(files.length).toBeGreaterThan(50);
    const uses = files.flatMap((file) =>
      DANGEROUS.filter(({ name, pattern }) => pattern.test(codeOf(file)) && ALLOWED[file]?.name !== name).map(
        ({ name }) => `${file}: ${name}`,
      ),
    );
    expect(uses).toEqual([]);
  });

  it('the scan finds what it looks for (each pattern matches its own example)', () => {
    const examples = [
      "import { exec } from 'node:child_process';", 'eval(text)', 'new Function("return 1")', "import vm from 'vm';",
      "import { Worker } from 'worker_threads';", 'new Worker(code, { eval: true })', 'process.binding("fs")',
      'await import(name)', 'require(name)', 'setTimeout("run()", 1)',
    ];
    expect(DANGEROUS.map(({ pattern }, index) => pattern.test(examples[index]!))).toEqual(DANGEROUS.map(() => true));
    expect(DANGEROUS.some(({ pattern }) => pattern.test("const match = /x/.exec(text); await import('../lsp/server.js');"))).toBe(false);
  });
});

/** A checked directory full of things that would run or read elsewhere if the checker ever let them. */
function temptingWorkspace(marker: string): string {
  const root = tree({
    'outside/secret.conf': 'upstream secret { server 10.9.9.9:1; }\n',
    'outside/conf.d/x.conf': 'server { listen 81; }\n',
    // Its location sets its own headers: the includes nobody can read at http level cannot change what it sends, so
    // a complete fix exists for it (and is refused: the file is outside the checked paths).
    'mapped/conf.d/site.conf':
      'upstream mapped { server 127.0.0.1:2; }\nserver { location / { proxy_set_header Host $host; proxy_pass http://mapped; } }\n',
    'checked/nginx.conf': [
      'events {}',
      'http {',
      '  include ../outside/secret.conf;',
      `  include OUTSIDE/*.conf;`,
      '  include ../checked/../outside/conf.d/*.conf;',
      '  include /etc/passwd;',
      '  include escape.inc;',
      '  include /etc/nginx/conf.d/*.conf;',
      `  perl_set $x 'sub { system("touch ${marker}") }';`,
      '  js_import /etc/nginx/evil.js;',
      `  ssl_certificate "$(touch ${marker})";`,
      '  server {',
      `    location / { content_by_lua_block { os.execute("touch ${marker}") } }`,
      `    location /b { proxy_pass http://\`touch ${marker}\`; }`,
      '  }',
      '}',
      '',
    ].join('\n'),
    'checked/app/nginx.conf.sigil': `{{ exec "touch ${marker}" }}\n{{ .Env.X | sh }}\nserver {\n  listen {{ $.PORT }};\n}\n`,
  });
  // The absolute path of outside/ is known only now that the tree exists.
  const nginxConf = path.join(root, 'checked/nginx.conf');
  writeFileSync(nginxConf, readFileSync(nginxConf, 'utf8').replace('OUTSIDE', path.join(root, 'outside')));
  // Not a *.conf: the directory walk would check it as a file of its own (links in a checked directory are followed,
  // as sites-enabled/ needs); as an include it leads outside and must not be followed.
  symlinkSync('../outside/secret.conf', path.join(root, 'checked/escape.inc'));
  return root;
}

function strace(cwd: string, args: string[]): { status: number | null; stdout: string; calls: string[] } {
  const log = path.join(cwd, 'strace.log');
  const traced = ['-f', '-qq', '-e', 'trace=open,openat,openat2,execve,execveat', '-o', log, process.execPath, CLI, ...args];
  const result = spawnSync('strace', traced, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`strace is needed for this test (apt-get install strace): ${result.error.message}`);
  return { status: result.status, stdout: result.stdout, calls: readFileSync(log, 'utf8').split('\n') };
}

describe('a run under strace', () => {
  it('opens nothing outside the checked paths and the mapped directory, runs nothing, and --fix writes nothing outside', () => {
    const marker = path.join(tree({}), 'pwned');
    const root = temptingWorkspace(marker);
    const mapped = `/etc/nginx=${path.join(root, 'mapped')}`;
    const { status, stdout, calls } = strace(root, ['check', 'checked', '--path-map', mapped, '--fix', '--format', 'json']);
    // 2: the mapped file's fixes are refused (outside the checked paths), which fails a --fix run.
    expect(status).toBe(2);

    const opens = calls.filter((call) => /\bopen(at2?)?\(/.test(call));
    // The positive control: the mapped include was opened, so the trace does see the checker's reads.
    expect(opens.some((call) => call.includes(path.join(root, 'mapped/conf.d/site.conf')))).toBe(true);
    expect(opens.filter((call) => call.includes(path.join(root, 'outside')) || call.includes('/etc/passwd'))).toEqual([]);
    // Only the traced node itself was executed (worker threads are threads, not programs).
    expect(calls.filter((call) => /\bexecve(at)?\(/.test(call))).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);

    const includes = reported(root, stdout).filter((finding) => finding.ruleId === 'include');
    expect(includes.map((finding) => finding.line)).toEqual([3, 4, 5, 6, 7]);
    expect(readFileSync(path.join(root, 'outside/secret.conf'), 'utf8')).toBe('upstream secret { server 10.9.9.9:1; }\n');
  });
});
