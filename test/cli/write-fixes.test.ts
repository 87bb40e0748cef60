// writeFixedFile on real files: the read snapshot is the `original` field, so a change "between read and write" is
// simulated by changing the file after taking it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFixedFile, writeFixes, WriteRefused, type WriteGuards } from '../../server/src/cli/write-fixes.js';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/engine/syntax-check.js';
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

/** Replaces `file` by a FIFO (what a hostile or careless process can do between the analysis and the write). */
function swapForFifo(file: string): void {
  unlinkSync(file);
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
}

/**
 * Runs `write`, which may block on opening `fifo` (a blocked read cannot be timed out from inside the process): a
 * separate process opens it for writing after a few seconds, which unblocks such a read with end-of-file. A write
 * that never blocks is done long before, and the helper is stopped unused.
 */
function unblockingFifo<T>(fifo: string, write: () => T): T {
  const script = [
    "const fs = require('node:fs');",
    'const unblock = () => fs.closeSync(fs.openSync(process.argv[1], fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));',
    'setTimeout(() => { try { unblock(); } catch {} }, 5000);',
  ].join('\n');
  const helper = spawn(process.execPath, ['-e', script, fifo], { stdio: 'ignore' });
  try {
    return write();
  } finally {
    helper.kill();
  }
}

describe('a file replaced by a FIFO before --fix writes it', () => {
  it('is refused without blocking when the swap happens after the temp file was written, which is removed', () => {
    const root = tree({ 'site.conf': ORIGINAL });
    const file = path.join(root, 'site.conf');
    const outcome = unblockingFifo(file, () =>
      writeFixes([{ path: file, original: ORIGINAL, fixed: FIXED }], { ...guards(root), beforeCommit: swapForFifo }),
    );
    expect(outcome).toEqual({ written: [], refused: [{ path: file, reason: expect.stringMatching(/^not a regular file/) }] });
    expect(lstatSync(file).isFIFO()).toBe(true);
    expect(readdirSync(root)).toEqual(['site.conf']);
  });

  it('is refused before any temp file is made when the swap happened since the analysis read it', () => {
    const root = tree({ 'sites-available/app.conf': ORIGINAL });
    const link = path.join(root, 'sites-enabled/app.conf');
    mkdirSync(path.dirname(link));
    symlinkSync('../sites-available/app.conf', link);
    const target = path.join(root, 'sites-available/app.conf');
    swapForFifo(target);
    const outcome = unblockingFifo(target, () => writeFixes([{ path: link, original: ORIGINAL, fixed: FIXED }], guards(root)));
    expect(outcome).toEqual({ written: [], refused: [{ path: link, reason: expect.stringMatching(/^not a regular file/) }] });
    expect(lstatSync(target).isFIFO()).toBe(true);
    expect(readdirSync(path.join(root, 'sites-available'))).toEqual(['app.conf']);
  });

  it('is refused as changed when it grew past the text read (the re-read stops at that many bytes)', () => {
    const root = tree({ 'site.conf': ORIGINAL });
    const file = path.join(root, 'site.conf');
    const grow = (target: string) => writeFileSync(target, ORIGINAL.repeat(1000));
    const outcome = writeFixes([{ path: file, original: ORIGINAL, fixed: FIXED }], { ...guards(root), beforeCommit: grow });
    expect(outcome.refused).toEqual([{ path: file, reason: 'changed on disk since it was read, not written' }]);
    expect(readdirSync(root)).toEqual(['site.conf']);
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
