// `nginx-keepalive format` end to end: the built CLI on real files in temporary directories.
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

const MESSY = 'http {\nserver  {\n  listen   80 ;\n        location / {return 200;}\n}\n}\n';
const TIDY = 'http {\n    server {\n        listen 80;\n        location / { return 200; }\n    }\n}\n';
const TIDY_TABS = 'http {\n\tserver {\n\t\tlisten 80;\n\t\tlocation / { return 200; }\n\t}\n}\n';
const BROKEN = 'http {\n    server {\n        listen 80\n    }\n}\n';

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

describe('format: writing', () => {
  it('rewrites files in place and says how many, then leaves them alone', () => {
    const root = tree({ 'a.conf': MESSY, 'sites/b.conf': TIDY });
    const first = runCli(root, ['format']);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    expect(first.stdout).toBe('1 file reformatted, 1 file left unchanged\n');
    expect(read(root, 'a.conf')).toBe(TIDY);
    expect(runCli(root, ['format', '.']).stdout).toBe('2 files left unchanged\n');
  });

  it('writes atomically: a new file renamed over the old one, keeping its mode and links, no temp file left', () => {
    const root = tree({ 'sites-available/app.conf': MESSY });
    const target = path.join(root, 'sites-available/app.conf');
    chmodSync(target, 0o640);
    symlinkSync('sites-available/app.conf', path.join(root, 'app-link.conf'));
    const before = statSync(target);
    const result = runCli(root, ['format', 'app-link.conf']);
    expect(result.status).toBe(0);
    const after = statSync(target);
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o640);
    expect(read(root, 'sites-available/app.conf')).toBe(TIDY);
    expect(readdirSync(path.join(root, 'sites-available'))).toEqual(['app.conf']);
    expect(lstatSync(path.join(root, 'app-link.conf')).isSymbolicLink()).toBe(true);
  });

  it('does not format a file with a syntax error, says where and why, formats the others, and exits 2', () => {
    const root = tree({ 'a.conf': MESSY, 'broken.conf': BROKEN });
    const result = runCli(root, ['format']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('nginx-keepalive: broken.conf:4:5: not formatted: syntax error: unexpected "}" (line 3 lacks its ";")\n');
    expect(read(root, 'broken.conf')).toBe(BROKEN);
    expect(read(root, 'a.conf')).toBe(TIDY);
  });
});

describe('format --check and --diff', () => {
  it('--check lists the files that would change, changes nothing, and exits 1; 0 once formatted', () => {
    const root = tree({ 'a.conf': MESSY, 'b.conf': TIDY });
    const result = runCli(root, ['format', '--check']);
    expect(result).toMatchObject({ status: 1, stderr: '' });
    expect(result.stdout).toBe('would reformat: a.conf\n1 file would be reformatted, 1 file already formatted\n');
    expect(read(root, 'a.conf')).toBe(MESSY);
    expect(runCli(root, ['format', '--check', 'b.conf'])).toMatchObject({ status: 0, stdout: '1 file already formatted\n' });
  });

  it('--diff prints a patch git can apply, changes nothing, and exits 1', () => {
    const root = tree({ 'a.conf': 'server {\nlisten 80;\n}\n' });
    const result = runCli(root, ['format', '--diff']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('--- a/a.conf\n+++ b/a.conf\n@@ -1,3 +1,3 @@\n server {\n-listen 80;\n+    listen 80;\n }\n');
    expect(result.stderr).toBe('nginx-keepalive: 1 file would be reformatted\n');
    expect(read(root, 'a.conf')).toBe('server {\nlisten 80;\n}\n');
  });
});

describe('format - (stdin)', () => {
  it('writes the formatted text to stdout', () => {
    const root = tree({});
    expect(runCli(root, ['format', '-'], {}, MESSY)).toEqual({ status: 0, stdout: TIDY, stderr: '' });
  });

  it('refuses text with a syntax error: nothing on stdout, the reason on stderr, exit 2', () => {
    const root = tree({});
    const result = runCli(root, ['format', '-'], {}, BROKEN);
    expect(result).toEqual({ status: 2, stdout: '', stderr: 'nginx-keepalive: <stdin>:4:5: not formatted: syntax error: unexpected "}" (line 3 lacks its ";")\n' });
  });

  it('--check and --diff apply to stdin too', () => {
    const root = tree({});
    expect(runCli(root, ['format', '-', '--check'], {}, MESSY)).toMatchObject({ status: 1, stdout: '' });
    expect(runCli(root, ['format', '-', '--check'], {}, TIDY)).toMatchObject({ status: 0, stdout: '' });
    expect(runCli(root, ['format', '-', '--diff'], {}, MESSY).stdout).toContain('+    server {\n');
  });
});

describe('format: indentation settings', () => {
  it('honours the nearest .editorconfig, which a flag overrides', () => {
    const root = tree({ '.editorconfig': 'root = true\n[*]\nindent_size = 2\n[*.conf]\nindent_style = tab\n', 'a.conf': MESSY, 'b.nginx': MESSY });
    expect(runCli(root, ['format']).status).toBe(0);
    expect(read(root, 'a.conf')).toBe(TIDY_TABS);
    expect(read(root, 'b.nginx')).toBe(TIDY.replaceAll('    ', '  '));
    expect(runCli(root, ['format', '--indent-style', 'space', '--indent-width', '4']).status).toBe(0);
    expect(read(root, 'a.conf')).toBe(TIDY);
  });

  it('applies .editorconfig to stdin by --stdin-filename', () => {
    const root = tree({ 'deploy/.editorconfig': '[*.conf]\nindent_style = tab\n' });
    expect(runCli(root, ['format', '-', '--stdin-filename', 'deploy/site.conf'], {}, MESSY).stdout).toBe(TIDY_TABS);
    expect(runCli(root, ['format', '-', '--stdin-filename', 'other/site.conf'], {}, MESSY).stdout).toBe(TIDY);
  });

  it('reads no .editorconfig above the working directory and the checked paths', () => {
    const root = tree({ '.editorconfig': '[*]\nindent_style = tab\n', 'project/a.conf': MESSY });
    expect(runCli(path.join(root, 'project'), ['format', 'a.conf']).status).toBe(0);
    expect(read(root, 'project/a.conf')).toBe(TIDY);
  });
});

describe('format: usage', () => {
  it.each([
    [['format', '--fix'], '--fix does not apply to the "format" command'],
    [['check', '--diff'], '--diff only applies to the "format" command'],
    [['format', '--indent-style', 'tabs'], 'invalid --indent-style "tabs" (expected space or tab)'],
    [['format', '--indent-width', '0'], 'invalid --indent-width "0" (expected an integer from 1 to 16)'],
  ])('%j is a usage error', (args, message) => {
    const result = runCli(tree({}), args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
