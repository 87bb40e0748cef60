// Worker threads running analyzeBatch and the grouping's statement scan (worker.ts, bundled as dist/cli-worker.cjs,
// run by its loader dist/cli-worker.js beside dist/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BatchResult, BatchTask } from './analyze-batch.js';
import type { Statements } from './linking-statements.js';
import { runningAsSingleExecutable } from '../../util/sea.js';

export type TaskMessage =
  | { id: number; task: BatchTask }
  /** The linking statements of these texts, for the grouping (predict-groups.ts). */
  | { id: number; texts: string[] }
  /** No more tasks: the worker ends once it has answered the ones it has, as a program ends (see close()). */
  | { close: true };

export interface ReplyMessage {
  id: number;
  result?: BatchResult;
  statements?: Statements[];
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
  private readonly pending = new Map<number, { resolve(reply: ReplyMessage): void; reject(error: Error): void }>();
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

  async run(task: BatchTask): Promise<BatchResult> {
    return (await this.ask((id) => ({ id, task }), 'result')).result!;
  }

  async statements(texts: string[]): Promise<Statements[]> {
    return (await this.ask((id) => ({ id, texts }), 'statements')).statements!;
  }

  private ask(message: (id: number) => TaskMessage, answer: 'result' | 'statements'): Promise<ReplyMessage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply[answer] ? resolve(reply) : reject(new Error(`analysis worker failed: ${reply.error ?? 'no result'}`))),
        reject,
      });
      this.worker.postMessage(message(id));
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
    waiting.resolve(reply);
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
