// Every place the release version is written, so that `npm run version:bump` changes them all and
// test/release/versions.test.ts holds them equal to package.json's. The CLI's --version and the language server's
// serverInfo read package.json through server/src/engine/version.ts, so they follow it when built.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { latestRelease } from './changelog.mjs';

export const SEMVER = /^\d+\.\d+\.\d+$/;

/** Mentions in documentation and the action: a pinned pre-commit rev, a VSIX name, an npm or action reference. */
const MENTIONS = [
  /(\brev: v)(\d+\.\d+\.\d+)\b/g,
  /(\bnginx-keepalive-)(\d+\.\d+\.\d+)(?=\.vsix\b)/g,
  /(\bnginx-keepalive@v?)(\d+\.\d+\.\d+)\b/g,
];
/** The action's input that pins the CLI version (action.yml: inputs.<name>.default). */
const ACTION_INPUT = /^(\s+)(version|cli-version|nginx-keepalive-version):\s*$/;
const DEFAULT_LINE = /^(\s+default:\s*['"]?)(\d+\.\d+\.\d+)(['"]?\s*)$/;

function markdownFiles(root) {
  const files = ['README.md', 'client/EXTENSION.md', 'server/NPM.md'];
  const docs = path.join(root, 'docs');
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { recursive: true })) if (String(entry).endsWith('.md')) files.push(path.join('docs', String(entry)));
  }
  return files.filter((file) => existsSync(path.join(root, file)));
}

/** The lines of action.yml holding the version input's default: { index, prefix, version, suffix }. */
function actionDefaults(lines) {
  const found = [];
  for (let index = 0; index < lines.length; index += 1) {
    const input = ACTION_INPUT.exec(lines[index]);
    if (!input) continue;
    // The input's block: the lines indented deeper than its name.
    for (let next = index + 1; next < lines.length; next += 1) {
      const indent = lines[next].length - lines[next].trimStart().length;
      if (lines[next].trim() !== '' && indent <= input[1].length) break;
      const match = DEFAULT_LINE.exec(lines[next]);
      if (match) found.push({ index: next, prefix: match[1], version: match[2], suffix: match[3] });
    }
  }
  return found;
}

/**
 * Every place: { file, line (1-based), what, version }. package.json's version first; package-lock.json's two;
 * CHANGELOG.md's newest release; action.yml's input default when the file exists; the mentions in README.md, docs/ and the package pages.
 */
export function versionPlaces(root) {
  const places = [];
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  places.push({ file: 'package.json', line: 0, what: 'version', version: manifest.version });
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  places.push({ file: 'package-lock.json', line: 0, what: 'version', version: lock.version });
  places.push({ file: 'package-lock.json', line: 0, what: 'packages[""].version', version: lock.packages?.['']?.version });
  const latest = latestRelease(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'));
  places.push({ file: 'CHANGELOG.md', line: latest ? latest.heading + 1 : 0, what: 'newest release', version: latest?.name });
  const textFiles = markdownFiles(root);
  if (existsSync(path.join(root, 'action.yml'))) {
    textFiles.push('action.yml');
    const lines = readFileSync(path.join(root, 'action.yml'), 'utf8').split('\n');
    for (const entry of actionDefaults(lines)) places.push({ file: 'action.yml', line: entry.index + 1, what: 'input default', version: entry.version });
  }
  for (const file of textFiles) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, index) => {
      for (const pattern of MENTIONS) {
        for (const match of text.matchAll(pattern)) places.push({ file, line: index + 1, what: match[0], version: match[2] });
      }
    });
  }
  return places;
}

/** Writes `version` into every place versionPlaces finds; returns the files changed. */
export function writeVersion(root, version) {
  if (!SEMVER.test(version)) throw new Error(`not a version: ${version} (x.y.z)`);
  const changed = new Set();
  const update = (file, transform) => {
    const full = path.join(root, file);
    const before = readFileSync(full, 'utf8');
    const after = transform(before);
    if (after !== before) {
      writeFileSync(full, after);
      changed.add(file);
    }
  };
  const json = (file, edit) => update(file, (text) => {
    const value = JSON.parse(text);
    edit(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  });
  json('package.json', (manifest) => { manifest.version = version; });
  json('package-lock.json', (lock) => {
    lock.version = version;
    if (lock.packages?.['']) lock.packages[''].version = version;
  });
  // CHANGELOG.md's sections are written by releaseUnreleased (scripts/release/changelog.mjs), not here.
  const files = new Set(versionPlaces(root).filter((place) => place.line > 0 && place.file !== 'CHANGELOG.md').map((place) => place.file));
  for (const file of files) {
    update(file, (text) => {
      const lines = text.split('\n');
      if (file === 'action.yml') {
        for (const entry of actionDefaults(lines)) lines[entry.index] = `${entry.prefix}${version}${entry.suffix}`;
      }
      return lines.map((line) => MENTIONS.reduce((out, pattern) => out.replace(pattern, (_all, head) => `${head}${version}`), line)).join('\n');
    });
  }
  return [...changed];
}
