// The tools compared: installed on first use into a private cache (never into the project), pinned versions.
//   ~/.cache/nginx-keepalive/bench-peers/<tool>-<version>/   a venv (PyPI tools) or an npm prefix
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
export const PEER_CACHE = process.env.NK_BENCH_PEERS ?? path.join(os.homedir(), '.cache', 'nginx-keepalive', 'bench-peers');

/**
 * kind: pypi or npm. role: linter (analyzes, as we do) or parser (only parses: a floor rather than a rival).
 * many(dir, files, listFile): argv checking all files in one process (listFile holds them one per
 * line, for tools reading stdin). one(file): argv for a single file, as a pre-commit hook would run it.
 */
export const PEERS = [
  {
    name: 'gixy-ng', version: '0.2.59', kind: 'pypi', role: 'linter',
    many: (dir, files) => [bin(dir, 'gixy'), '-f', 'json', ...files],
    one: (dir, file) => [bin(dir, 'gixy'), '-f', 'json', file],
  },
  {
    name: 'gixy-next', version: '0.9.0', kind: 'pypi', role: 'linter',
    many: (dir, files) => [bin(dir, 'gixy'), '-f', 'json', ...files],
    one: (dir, file) => [bin(dir, 'gixy'), '-f', 'json', file],
  },
  {
    name: 'crossplane', version: '0.5.8', kind: 'pypi', role: 'parser', note:
      'its library call crossplane.parse() per file in one python process (its CLI takes one file); "failed" counts ' +
      'files with any error in its report: a missing include, a snippet outside its context',
    many: (dir, _files, listFile) => ['bash', '-c', 'exec "$0" "$1" <"$2"', bin(dir, 'python'), script('crossplane_loop.py'), listFile],
    one: (dir, file) => [bin(dir, 'crossplane'), 'parse', file],
  },
  {
    name: 'nginx-linter', version: '0.7.0', kind: 'npm', role: 'linter', note:
      'its CLI entry called once per file in one node process (one unparsable file aborts a whole run); "failed" ' +
      'counts files its grammar could not parse',
    many: (dir, _files, listFile) => ['bash', '-c', 'exec node "$0" "$1" <"$2"', script('nginx-linter-loop.cjs'), path.join(dir, 'node_modules/nginx-linter/bin/_cli/index.js'), listFile],
    one: (dir, file) => [path.join(dir, 'node_modules/.bin/nginx-linter'), '--include', file, '--no-follow-includes'],
  },
];

function bin(dir, name) {
  return path.join(dir, 'bin', name);
}

function script(name) {
  return path.join(here, 'peer-scripts', name);
}

export function peerDir(peer) {
  return path.join(PEER_CACHE, `${peer.name}-${peer.version}`);
}

function run(argv, what) {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(`${what} failed: ${result.error?.message ?? ''}${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
}

/** Installs the peer unless its marker file says a previous install finished. */
function install(peer) {
  const dir = peerDir(peer);
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.error(`bench: installing ${peer.name} ${peer.version} into ${dir}`);
  if (peer.kind === 'pypi') {
    run(['python3', '-m', 'venv', dir], `python3 -m venv ${dir}`);
    run([bin(dir, 'pip'), 'install', '--quiet', '--disable-pip-version-check', `${peer.name}==${peer.version}`], `pip install ${peer.name}`);
  } else {
    run(['npm', 'install', '--prefix', dir, '--no-audit', '--no-fund', '--silent', `${peer.name}@${peer.version}`], `npm install ${peer.name}`);
  }
  run(['touch', marker], 'touch');
  return dir;
}

/**
 * walf443/nginx-lint, the Rust linter: on no registry this machine reaches, so it is measured only when
 * NGINX_LINT_BIN names a build of it (bench/README.md says how to build one). It takes the files as arguments and
 * prints one JSON object per file.
 */
function rustPeer() {
  const bin = process.env.NGINX_LINT_BIN;
  if (!bin) return undefined;
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return { missing: { name: 'nginx-lint (Rust)', reason: `NGINX_LINT_BIN=${bin} does not run` } };
  return {
    ready: {
      name: 'nginx-lint', version: version.stdout.trim().split(/\s+/).at(-1), kind: 'binary', role: 'linter', rust: true,
      dir: path.dirname(bin),
      note: 'the Rust linter (walf443/nginx-lint), built from source (NGINX_LINT_BIN); all files as arguments of one process, --format json',
      many: (_dir, files) => [bin, '--no-color', '--format', 'json', ...files],
      one: (_dir, file) => [bin, '--no-color', '--format', 'json', file],
      reported: (outFile) => (readFileSync(outFile, 'utf8').match(/^ {2}"file": /gm) ?? []).length,
    },
  };
}

/** Every peer that installs, each with its directory; a failed install is reported and the peer left out. */
export function installPeers() {
  const ready = [];
  const missing = [];
  const rust = rustPeer();
  if (rust?.ready) ready.push(rust.ready);
  if (rust?.missing) missing.push(rust.missing);
  for (const peer of PEERS) {
    try {
      ready.push({ ...peer, dir: install(peer) });
    } catch (error) {
      missing.push({ name: peer.name, reason: error.message.split('\n')[0] });
    }
  }
  return { ready, missing };
}

export function ourVersion() {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}
