// A read that blocks on a FIFO blocks the whole test process: no timer of its own can fire to fail the test. This
// watchdog is a separate process: when a run has not finished by its deadline it opens the run's FIFOs for writing
// (which succeeds only where a reader is waiting) and closes them, so the blocked read sees end-of-file and returns,
// and it leaves a mark the test then fails on. The process is started once and polls a small state file.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WATCHDOG = `
const fs = require('node:fs');
const [state, mark] = process.argv.slice(1);
setInterval(() => {
  let run;
  try { run = JSON.parse(fs.readFileSync(state, 'utf8')); } catch { return; }
  if (Date.now() < run.deadline) return;
  fs.writeFileSync(mark, run.id);
  for (const fifo of run.fifos) {
    try { fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}
  }
}, 250);
`;

export class FifoWatchdog {
  private readonly directory = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-watchdog-'));
  private readonly state = path.join(this.directory, 'state.json');
  private readonly mark = path.join(this.directory, 'blocked');
  private readonly child: ChildProcess;

  constructor(private readonly seconds: number) {
    this.child = spawn(process.execPath, ['-e', WATCHDOG, this.state, this.mark], { stdio: 'ignore' });
  }

  /** Runs `body`; throws when the watchdog had to unblock it (it blocked on one of `fifos`). */
  async guard<T>(id: string, fifos: readonly string[], body: () => Promise<T>): Promise<T> {
    writeFileSync(this.state, JSON.stringify({ id, fifos, deadline: Date.now() + this.seconds * 1000 }));
    try {
      return await body();
    } finally {
      rmSync(this.state, { force: true });
      if (existsSync(this.mark)) {
        rmSync(this.mark);
        // A finally that throws replaces the body's result: a run that blocked fails even if it then finished.
        throw new Error(`${id} blocked for over ${this.seconds} s, on a FIFO or another blocking read`);
      }
    }
  }

  stop(): void {
    this.child.kill();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
