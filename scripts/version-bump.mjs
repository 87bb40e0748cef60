#!/usr/bin/env node
// `npm run version:bump <x.y.z>`: one version everywhere. CHANGELOG.md's Unreleased entries become the new version's
// section (dated today, UTC), then package.json, package-lock.json, action.yml's default and the pinned versions
// in the documentation are rewritten (scripts/release/versions.mjs lists the places; test/release/versions.test.ts
// holds them equal). The CLI's --version and the language server's serverInfo follow package.json when built.
// Commits nothing: review the diff, commit, tag v<x.y.z>, then `npm run release`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseUnreleased } from './release/changelog.mjs';
import { SEMVER, versionPlaces, writeVersion } from './release/versions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = process.argv[2];

function fail(message) {
  process.stderr.write(`version:bump: ${message}\n`);
  process.exit(2);
}

if (!version || !SEMVER.test(version)) fail('usage: npm run version:bump <x.y.z>');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
if (manifest.version === version) fail(`the version is already ${version}`);
const repositoryUrl = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const changelogFile = path.join(root, 'CHANGELOG.md');
let changelog;
try {
  changelog = releaseUnreleased(readFileSync(changelogFile, 'utf8'), version, new Date().toISOString().slice(0, 10), repositoryUrl);
} catch (error) {
  fail(error.message);
}
writeFileSync(changelogFile, changelog);
const changed = ['CHANGELOG.md', ...writeVersion(root, version)];
const stale = versionPlaces(root).filter((place) => place.version !== version);
if (stale.length > 0) fail(`still another version: ${stale.map((place) => `${place.file}:${place.line} ${place.what}`).join(', ')}`);
process.stdout.write(`${manifest.version} -> ${version}: ${changed.join(', ')}\n`);
