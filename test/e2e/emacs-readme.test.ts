// The Emacs eglot block of docs/editors.md, as written there, in batch Emacs 28 with Debian's eglot 1.9 and nginx-mode: it
// must open a Dokku `nginx.conf.sigil` in nginx-mode, start the server through the `nginx-keepalive` command on PATH
// and show its diagnostics in Flymake. The harness around the block does only what an interactive Emacs does by
// itself: activate the installed packages before the init file, and run the post-command hook (where eglot-ensure
// connects) once the file is open; then it waits for the diagnostics and writes them out.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliFindings, cliShimDirectory, docsBlock } from './support/docs-block.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const BEFORE = '(package-initialize)\n';

const PROBE = `
(find-file "nginx.conf.sigil")
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 20)) (diagnostics nil))
  (while (and (< (float-time) deadline) (null diagnostics))
    (accept-process-output nil 0.05)
    (when (bound-and-true-p flymake-mode) (flymake-start))
    (setq diagnostics (flymake-diagnostics)))
  ;; Read in the file's buffer: line numbers are the buffer's, not the result file's.
  (let ((codes (mapcar (lambda (d)
                         (let ((text (flymake-diagnostic-text d)))
                           (string-match "\\\\[\\\\([a-z-]+\\\\)\\\\]" text)
                           (format "%s@%d" (match-string 1 text) (line-number-at-pos (flymake-diagnostic-beg d)))))
                       diagnostics))
        (mode (symbol-name major-mode))
        (connected (if (eglot-current-server) t :json-false)))
    (with-temp-file (getenv "NK_RESULT")
      (insert (json-encode (list (cons 'mode mode) (cons 'connected connected) (cons 'codes (vconcat codes))))))))
`;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("docs/editors.md's Emacs eglot configuration", () => {
  it('opens a Dokku sigil in nginx-mode and shows the same findings as the CLI', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nk-emacs-readme-'));
    dirs.push(dir);
    const bin = cliShimDirectory(dir);
    writeFileSync(path.join(dir, 'init.el'), BEFORE + docsBlock('emacs-eglot'));
    writeFileSync(path.join(dir, 'probe.el'), PROBE);
    const sigil = path.join(dir, 'nginx.conf.sigil');
    copyFileSync(path.join(repoRoot, 'examples/dokku/nginx.conf.sigil'), sigil);
    const resultFile = path.join(dir, 'result.json');

    const emacs = spawnSync('emacs', ['--batch', '-l', 'init.el', '-l', 'probe.el'], {
      cwd: dir,
      encoding: 'utf8',
      // A guard against a hung editor, not a wait: the probe waits on the diagnostics and exits by itself.
      timeout: 45_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: dir, NK_RESULT: resultFile },
    });
    expect(emacs.status, emacs.stderr).toBe(0);
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { mode: string; connected: boolean; codes: string[] };
    expect(result.mode).toBe('nginx-mode');
    expect(result.connected).toBe(true);
    expect([...result.codes].sort()).toEqual(cliFindings(sigil, '1.24.0'));
  });
});
