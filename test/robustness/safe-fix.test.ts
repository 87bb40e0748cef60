// --fix never loses a byte of what is on disk: it writes a temp file beside the target and renames it (keeping the
// mode), refuses a file that changed since it was read or a result that would not parse, and never writes outside
// the checked paths, whatever an include or a link points at.
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFix } from '../../server/src/cli/fix-run.js';
import { readDocuments } from '../../server/src/cli/read-documents.js';
import { writeFixes, type WriteGuards } from '../../server/src/cli/write-fixes.js';
import { loadSyntaxChecker, type SyntaxChecker } from '../../server/src/engine/syntax-check.js';
import { modeOf, runCli, useTempTrees } from './support.js';

const tree = useTempTrees();

/** Fixable (upstream-keepalive, proxy-http-version, connection-header-missing): --fix rewrites it. */
const FIXABLE = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; }\n  server { location / { proxy_pass http://app; } }\n}\n';
const FIXED = 'events {}\nhttp {\n  upstream app { server 127.0.0.1:3000; keepalive 16; }\n  server { location / { proxy_http_version 1.1; proxy_set_header Connection ""; proxy_pass http://app; } }\n}\n';

let isClean: SyntaxChecker;
beforeAll(async () => {
  isClean = await loadSyntaxChecker();
});

describe('writing', () => {
  it('replaces each file by a rename (new inode), keeps 0640 and 0755 modes, and leaves no temp file', () => {
    const root = tree({ 'private.conf': FIXABLE, 'script.conf': FIXABLE });
    const [privateFile, script] = [path.join(root, 'private.conf'), path.join(root, 'script.conf')];
    chmodSync(privateFile, 0o640);
    chmodSync(script, 0o755);
    const inodes = [statSync(privateFile).ino, statSync(script).ino];
    const result = runCli(root, ['check', '.', '--fix']);
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
    expect([readFileSync(privateFile, 'utf8'), readFileSync(script, 'utf8')]).toEqual([FIXED, FIXED]);
    // Each file's temp file exists while the file does, so it cannot get that file's inode back.
    expect(statSync(privateFile).ino).not.toBe(inodes[0]);
    expect(statSync(script).ino).not.toBe(inodes[1]);
    expect([modeOf(privateFile), modeOf(script)]).toEqual([0o640, 0o755]);
    expect(readdirSync(root).sort()).toEqual(['private.conf', 'script.conf']);
  });
});

describe('a file changed on disk after it was read', () => {
  it('is not written by the fix run: the new content stays, the run fails and reports what is on disk', async () => {
    const root = tree({ 'a.conf': FIXABLE, 'b.conf': FIXABLE });
    const [a, b] = [path.join(root, 'a.conf'), path.join(root, 'b.conf')];
    const read = readDocuments([a, b], root);
    const edited = FIXABLE.replace('3000', '4000');
    writeFileSync(a, edited);
    const stderr: string[] = [];
    const run = await runFix('write', read.documents, {
      analyzeOptions: { readRoots: [root] },
      roots: [root],
      io: { cwd: root, stdout: () => {}, stderrLine: (line) => stderr.push(line) },
    });
    expect(stderr).toEqual(['a.conf: changed on disk since it was read, not written']);
    expect(run.failed).toBe(true);
    expect(readFileSync(a, 'utf8')).toBe(edited);
    expect(readFileSync(b, 'utf8')).toBe(FIXED);
    expect(run.documents.find((doc) => doc.path === a)?.text).toBe(edited);
    expect(run.findings.filter((finding) => finding.file === a).map((finding) => finding.ruleId)).toContain('upstream-keepalive');
  });

  it('is caught at the last moment, after the new text is in its temp file: the temp file is removed', () => {
    const root = tree({ 'site.conf': FIXABLE });
    const file = path.join(root, 'site.conf');
    const meanwhile = `${FIXABLE}# saved by an editor meanwhile\n`;
    const seenTemps: string[][] = [];
    const guards: WriteGuards = {
      roots: [root],
      isClean,
      beforeCommit: (target) => {
        seenTemps.push(readdirSync(path.dirname(target)).filter((name) => name.endsWith('.tmp')));
        writeFileSync(target, meanwhile);
      },
    };
    const outcome = writeFixes([{ path: file, original: FIXABLE, fixed: FIXED }], guards);
    expect(outcome).toEqual({ written: [], refused: [{ path: file, reason: 'changed on disk since it was read, not written' }] });
    expect(seenTemps).toEqual([[expect.stringMatching(/^\.site\.conf\.nginx-keepalive-.*\.tmp$/)]]);
    expect(readFileSync(file, 'utf8')).toBe(meanwhile);
    expect(readdirSync(root)).toEqual(['site.conf']);
  });
});

describe('a fixed text that would not parse cleanly', () => {
  it('is refused before anything is written, and the file keeps its inode and bytes', () => {
    const root = tree({ 'site.conf': FIXABLE });
    const file = path.join(root, 'site.conf');
    const inode = statSync(file).ino;
    const broken = FIXED.replace('keepalive 16;', 'keepalive 16');
    const outcome = writeFixes([{ path: file, original: FIXABLE, fixed: broken }], { roots: [root], isClean });
    expect(outcome.refused).toEqual([
      { path: file, reason: 'the fixed text would not parse cleanly, not written (please report this bug)' },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(FIXABLE);
    expect(statSync(file).ino).toBe(inode);
  });
});

describe('files outside the checked paths', () => {
  it('a link in a checked directory to a file outside is reported, never read, never written through', () => {
    const root = tree({ 'outside/site.conf': FIXABLE, 'checked/local.conf': FIXABLE });
    const link = path.join(root, 'checked/linked.conf');
    symlinkSync('../outside/site.conf', link);
    const result = runCli(path.join(root, 'checked'), ['check', '.', '--fix']);
    expect(readFileSync(path.join(root, 'outside/site.conf'), 'utf8')).toBe(FIXABLE);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(root, 'checked/local.conf'), 'utf8')).toBe(FIXED);
    // The walk does not follow it (issue 10, item 12): no finding comes from the file outside.
    expect(result.stderr).toBe('nginx-keepalive: linked.conf: a symbolic link leading outside the checked paths, not followed\n');
    expect(result.stdout).not.toContain('linked.conf');
    expect(result.status).toBe(0);
  });

  it('an include mapped (--path-map) outside the checked directory is read and reported, never written', () => {
    const root = tree({
      'checked/nginx.conf': 'events {}\nhttp {\n  include /etc/nginx/sites/*.conf;\n}\n',
      'shared/sites/app.conf':
        'upstream app { server 127.0.0.1:3000; }\nserver { location / { proxy_pass http://app; } }\n',
    });
    const shared = path.join(root, 'shared/sites/app.conf');
    const before = readFileSync(shared);
    const result = runCli(root, ['check', 'checked', '--fix', '--path-map', '/etc/nginx=shared', '--format', 'json']);
    expect(readFileSync(shared).equals(before)).toBe(true);
    expect(result.stderr).toBe(
      'nginx-keepalive: shared/sites/app.conf: outside the checked paths, its fixes are not applied (check it, or its directory, to fix it)\n',
    );
    expect(result.stdout).toContain('upstream-keepalive');
    // Refused, so exit 2 (issue 10, item 14): the run did not fix what it found.
    expect(result.status).toBe(2);
  });
});
