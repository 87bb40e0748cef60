#!/usr/bin/env node
// Builds dist/ and packages the VS Code extension: nginx-keepalive-<version>.vsix (`npm run package`).
//   node scripts/package-vsix.mjs [--out <file.vsix>] [--no-build] [--marketplace]
//   (--no-build: package the dist/ that is there)
// vsce refuses a package.json "files" list next to a .vscodeignore, and "files" is what the npm package (the CLI)
// ships. So vsce runs in a staging copy whose package.json has no "files"; .vscodeignore, the allowlist, decides
// what goes in. Everything is bundled, so --no-dependencies, and vsce never needs the network for `package`.
// The extension page is client/EXTENSION.md (the editor first), with its screenshots and icon packed in images/ and
// linked relatively (--no-rewrite-relative-links), so the page shows them offline. The Marketplace's and Open VSX's
// web pages do not resolve links into the VSIX (a relative image is looked up in the repository's root, where
// images/ is not), so --marketplace (what `npm run release` packs) links them to docs/images/ at the version's tag.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAGED = ['.vscodeignore', 'LICENSE', 'CHANGELOG.md', 'language-configuration.json', 'syntaxes', 'dist'];
/** Staged under another name: the extension page and what it shows. */
const RENAMED = [
  ['client/EXTENSION.md', 'README.md'],
  ['client/images/icon.png', 'images/icon.png'],
  ['docs/images/vscode-diagnostics.png', 'images/vscode-diagnostics.png'],
  ['docs/images/vscode-quickfix.png', 'images/vscode-quickfix.png'],
  ['docs/images/vscode-code-lens.png', 'images/vscode-code-lens.png'],
  ['docs/images/vscode-status.png', 'images/vscode-status.png'],
  ['docs/images/vscode-directive-hover.png', 'images/vscode-directive-hover.png'],
  ['docs/images/vscode-completion.png', 'images/vscode-completion.png'],
];

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${result.status ?? result.signal})`);
  }
}

function outPath(manifest) {
  const index = process.argv.indexOf('--out');
  if (index !== -1 && process.argv[index + 1]) return path.resolve(process.argv[index + 1]);
  return path.join(root, `${manifest.name}-${manifest.version}.vsix`);
}

/** The page's images/<name>.png, as docs/images/<name>.png of the repository at tag v<version>. */
function marketplaceImagesUrl(manifest) {
  const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const github = 'https://github.com/';
  if (!repository.startsWith(github)) throw new Error(`--marketplace: the repository is not on GitHub (${repository})`);
  return `https://raw.githubusercontent.com/${repository.slice(github.length)}/v${manifest.version}/docs`;
}

function stage(manifest) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-vsix-'));
  for (const name of STAGED) cpSync(path.join(root, name), path.join(dir, name), { recursive: true });
  for (const [from, to] of RENAMED) cpSync(path.join(root, from), path.join(dir, to));
  const { files: _npmFiles, ...vsixManifest } = manifest;
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(vsixManifest, null, 2)}\n`);
  return dir;
}

if (!process.argv.includes('--no-build')) run(process.execPath, ['esbuild.mjs'], root);
if (!existsSync(path.join(root, 'dist/server.js'))) {
  throw new Error('dist/server.js is missing: the language server did not build');
}
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = outPath(manifest);
const dir = stage(manifest);
try {
  const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
  // The page links the repository with absolute URLs itself; its images are in the VSIX.
  const links = process.argv.includes('--marketplace') ? ['--baseImagesUrl', marketplaceImagesUrl(manifest)] : ['--no-rewrite-relative-links'];
  run(process.execPath, [vsce, 'package', '--no-dependencies', ...links, '--out', out], dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${path.relative(process.cwd(), out) || out}: ${(statSync(out).size / 1024).toFixed(1)} KiB`);
