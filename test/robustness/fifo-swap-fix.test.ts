// Issue 25 item 5: `check --fix` exits 2, as the exit codes of docs/usage.md say, when a file it read was replaced (here by a
// real FIFO) before its fix could be written. An included file used to be read again on each pass of the fix loop:
// the FIFO made it unreadable, the fix silently did not apply, and the run exited 1 with the finding "fixable".
// The disk host is the real one; the test only swaps the file right after its first read (vi.mock wraps
// createFsHost, passing every call through), which is when a concurrent deploy or editor could do it.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseCommandLine } from '../../server/src/cli/args.js';
import { runCheck } from '../../server/src/cli/check.js';
import { EXIT_FAILURE } from '../../server/src/cli/exit-codes.js';
import { useTempTrees } from './support.js';

const swap = vi.hoisted(() => ({ file: undefined as string | undefined, done: false }));
vi.mock('../../server/src/util/fs-host.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/src/util/fs-host.js')>();
  return {
    ...actual,
    createFsHost: (...args: Parameters<typeof actual.createFsHost>) => {
      const host = actual.createFsHost(...args);
      return {
        ...host,
        readFile: (file: string) => {
          const text = host.readFile(file);
          if (!swap.done && swap.file !== undefined && path.resolve(file) === swap.file) {
            swap.done = true;
            unlinkSync(file);
            expect(spawnSync('mkfifo', [file]).status).toBe(0);
          }
          return text;
        },
      };
    },
  };
});

const tree = useTempTrees();
const MAIN = 'events {}\nhttp {\n  include sites/*.conf;\n}\n';
const SITE = 'upstream app { server 127.0.0.1:3000; }\nserver {\n  listen 80;\n  location / { proxy_pass http://app; }\n}\n';

async function check(cwd: string, args: string[]) {
  const err: string[] = [];
  const command = parseCommandLine(['check', '--jobs', '1', ...args], { cwd, env: {}, stdoutIsTTY: false });
  if (command.kind !== 'check') throw new Error(command.kind);
  const io = { cwd, stdout: () => {}, stderrLine: (line: string) => err.push(line), stderr: (text: string) => err.push(text) };
  return { code: await runCheck(command.options, io), stderr: err.join('\n') };
}

describe('check --fix on an included file replaced by a FIFO after it was read', () => {
  it('does not write it, says why, and exits 2', async () => {
    const root = tree({ 'nginx.conf': MAIN, 'sites/app.conf': SITE });
    swap.file = path.join(root, 'sites/app.conf');
    swap.done = false;
    const result = await check(root, ['nginx.conf', '--fix']);
    expect(swap.done).toBe(true);
    expect(lstatSync(swap.file).isFIFO()).toBe(true);
    expect(result.stderr).toContain('sites/app.conf: not a regular file any more (replaced since it was read), not written');
    expect(result.code).toBe(EXIT_FAILURE);
    expect(readdirSync(path.join(root, 'sites'))).toEqual(['app.conf']);
  });
});
