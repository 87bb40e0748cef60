// Worker threads running analyzeBatch (worker.ts, bundled as dist/cli-worker.js beside dist/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BatchResult, BatchTask } from './analyze-batch.js';
import { runningAsSingleExecutable } from '../../util/sea.js';

export type TaskMessage =
  | { id: number; task: BatchTask }
  /** No more tasks: the worker ends once it has answered the ones it has, as a program ends (see close()). */
  | { close: true };

export interface ReplyMessage {
  id: number;
  result?: BatchResult;
  /** A failure inside the worker, with its stack: a bug to surface, as the single-threaded run would. */
  error?: string;
}

export interface BatchRunner {
  run(task: BatchTask): Promise<BatchResult>;
}

/**
 * The worker bundle next to the running CLI bundle; undefined when there is none (the TypeScript sources run
 * directly, e.g. under a test runner), in which case the caller analyzes on the main thread only. The single
 * executable has none either: a worker would have to be a file on disk or a string run with eval, and neither is
 * wanted (see test/robustness/security.test.ts), so it runs --jobs 1 whatever is asked.
 */
export function workerScript(): URL | undefined {
  if (runningAsSingleExecutable()) return undefined;
  const script = new URL('./cli-worker.js', import.meta.url);
  return script.protocol === 'file:' && existsSync(fileURLToPath(script)) ? script : undefined;
}

export class WorkerRunner implements BatchRunner {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(result: BatchResult): void; reject(error: Error): void }>();
  private nextId = 0;
  private readonly exited: Promise<void>;

  constructor(script: URL) {
    this.worker = new Worker(script);
    this.worker.on('message', (reply: ReplyMessage) => this.settle(reply));
    this.worker.on('error', (error) => this.failAll(error));
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        this.failAll(new Error(`analysis worker exited (code ${code})`));
        resolve();
      });
    });
  }

  run(task: BatchTask): Promise<BatchResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, task } satisfies TaskMessage);
    });
  }

  /**
   * Ends the worker. After a run that went well it is asked to end on its own rather than stopped: only a thread that
   * ends as a program does runs its exit handlers, where its loader writes the code cache the next run's workers
   * start from (scripts/cli-loader.mjs). After a failure it is stopped at once.
   */
  async close(graceful = false): Promise<void> {
    if (graceful) this.worker.postMessage({ close: true } satisfies TaskMessage);
    else await this.worker.terminate();
    await this.exited;
  }

  private settle(reply: ReplyMessage): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.result) waiting.resolve(reply.result);
    else waiting.reject(new Error(`analysis worker failed: ${reply.error ?? 'no result'}`));
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
