// writeFixedFile on real files: the read snapshot is the `original` field, so a change "between read and write" is
// simulated by changing the file after taking it.
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFixedFile, writeFixes, WriteRefused, type WriteGuards } from '../../server/src/cli/write-fixes.js';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/core/syntax-check.js';
import { useTempTrees } from './helpers.js';

const ORIGINAL = 'server {\n  listen 80;\n}\n';
const FIXED = 'server {\n  listen 8080;\n}\n';

let isClean: SyntaxChecker;
beforeAll(async () => {
  isClean = await loadSyntaxChecker();
});

const tree = useTempTrees();

const guards = (...writable: string[]): WriteGuards => ({ roots: writable, isClean });

function refusal(action: () => void): string {
  try {
    action();
  } catch (error) {
    if (error instanceof WriteRefused) return error.message;
    throw error;
  }
  throw new Error('expected the write to be refused');
}

describe('writeFixedFile', () => {
  it('replaces the file by rename (a new inode), keeping its mode, and leaves no temp file', () => {
    const root = tree({ 'site.conf': ORIGINAL });
    const file = path.join(root, 'site.conf');
    chmodSync(file, 0o640);
    const before = statSync(file);
    writeFixedFile({ path: file, original: ORIGINAL, fixed: FIXED }, guards(root));
    const after = statSync(file);
    expect(readFileSync(file, 'utf8')).toBe(FIXED);
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o640);
    expect(readdirSync(root)).toEqual(['site.conf']);
  });

  it('writes through a symbolic link to its target and keeps the link', () => {
    const root = tree({ 'sites-available/app.conf': ORIGINAL });
    const link = path.join(root, 'sites-enabled/app.conf');
    mkdirSync(path.dirname(link));
    symlinkSync('../sites-available/app.conf', link);
    writeFixedFile({ path: link, original: ORIGINAL, fixed: FIXED }, guards(root));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(root, 'sites-available/app.conf'), 'utf8')).toBe(FIXED);
  });

  it('refuses a file that changed on disk since it was read, and leaves it as it is now', () => {
    const root = tree({ 'site.conf': ORIGINAL });
    const file = path.join(root, 'site.conf');
    writeFileSync(file, `${ORIGINAL}# edited meanwhile\n`);
    const reason = refusal(() => writeFixedFile({ path: file, original: ORIGINAL, fixed: FIXED }, guards(root)));
    expect(reason).toBe('changed on disk since it was read, not written');
    expect(readFileSync(file, 'utf8')).toBe(`${ORIGINAL}# edited meanwhile\n`);
    expect(readdirSync(root)).toEqual(['site.conf']);
  });

  it('refuses a file outside the writable roots', () => {
    const root = tree({ 'checked/nginx.conf': ORIGINAL, 'elsewhere/site.conf': ORIGINAL });
    const file = path.join(root, 'elsewhere/site.conf');
    const reason = refusal(() => writeFixedFile({ path: file, original: ORIGINAL, fixed: FIXED }, guards(path.join(root, 'checked'))));
    expect(reason).toMatch(/^outside the checked paths, not written/);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('refuses a text that does not parse cleanly', () => {
    const root = tree({ 'site.conf': ORIGINAL });
    const file = path.join(root, 'site.conf');
    const reason = refusal(() => writeFixedFile({ path: file, original: ORIGINAL, fixed: 'server {\n' }, guards(root)));
    expect(reason).toMatch(/would not parse cleanly/);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('refuses a file that is not valid UTF-8 (its decoded text would not write back the same bytes)', () => {
    const bytes = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(`\n${ORIGINAL}`)]);
    const root = tree({ 'site.conf': bytes });
    const file = path.join(root, 'site.conf');
    const decoded = bytes.toString('utf8');
    const reason = refusal(() => writeFixedFile({ path: file, original: decoded, fixed: decoded.replace('80', '8080') }, guards(root)));
    expect(reason).toBe('not valid UTF-8, not rewritten');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});

describe('writeFixes', () => {
  it('writes the others when one is refused, and lists both outcomes', () => {
    const root = tree({ 'a.conf': ORIGINAL, 'b.conf': ORIGINAL });
    const [a, b] = [path.join(root, 'a.conf'), path.join(root, 'b.conf')];
    writeFileSync(a, 'server {}\n');
    const outcome = writeFixes(
      [
        { path: a, original: ORIGINAL, fixed: FIXED },
        { path: b, original: ORIGINAL, fixed: FIXED },
      ],
      guards(root),
    );
    expect(outcome).toEqual({ written: [b], refused: [{ path: a, reason: 'changed on disk since it was read, not written' }] });
    expect(readFileSync(b, 'utf8')).toBe(FIXED);
  });
});
