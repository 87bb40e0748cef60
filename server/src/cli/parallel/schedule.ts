// Runs batches on several runners at once: the main thread (one batch at a time) and each worker (two queued, so a
// worker never waits for the busy main thread to hand it the next one). Largest batches first, so the last ones to
// finish are small.
import { analyzeBatch, type BatchResult, type BatchTask } from './analyze-batch.js';
import type { BatchRunner } from './worker-pool.js';

const WORKER_QUEUE_DEPTH = 2;
/** Not node:timers/promises' setImmediate: that module costs every run, parallel or not, start-up time. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const mainThreadRunner: BatchRunner = {
  async run(task) {
    const result = await analyzeBatch(task);
    // The analysis ran synchronously; let the workers' replies in so they get their next batch.
    await nextTurn();
    return result;
  },
};

function sizeOf(task: BatchTask): number {
  return task.documents.reduce((sum, document) => sum + document.text.length, 0);
}

/** Results in the order of `tasks`. */
export async function runAll(tasks: readonly BatchTask[], workers: readonly BatchRunner[]): Promise<BatchResult[]> {
  const order = tasks.map((task, index) => ({ index, size: sizeOf(task) })).sort((a, b) => b.size - a.size);
  const results: BatchResult[] = new Array(tasks.length);
  let next = 0;
  const drain = async (runner: BatchRunner) => {
    for (let item = order[next++]; item !== undefined; item = order[next++]) {
      results[item.index] = await runner.run(tasks[item.index]!);
    }
  };
  // The main thread takes the largest batch: its code is already loaded and warm, a new worker's is not.
  const lanes = [
    drain(mainThreadRunner),
    ...workers.flatMap((worker) => Array.from({ length: WORKER_QUEUE_DEPTH }, () => drain(worker))),
  ];
  await Promise.all(lanes);
  return results;
}
