// Entry of dist/cli-worker.js: analyzes the batches the main thread posts, one reply per task.
import { parentPort } from 'node:worker_threads';
import { analyzeBatch, type BatchTask } from './analyze-batch.js';
import type { TaskMessage, ReplyMessage } from './worker-pool.js';

const port = parentPort;
if (!port) throw new Error('cli-worker.js runs only as a worker thread of the nginx-keepalive CLI');

// One task at a time, each answered before the next starts: two tasks awaiting the parser together would otherwise
// both run before either reply is posted, leaving the main thread waiting for the first.
let queue: Promise<void> = Promise.resolve();
port.on('message', (message: TaskMessage) => {
  if ('close' in message) {
    // Nothing left to wait for once the port is closed: the thread ends, running its exit handlers.
    queue = queue.then(() => port.close());
    return;
  }
  queue = queue.then(async () => port.postMessage({ id: message.id, ...(await answer(message.task)) } satisfies ReplyMessage));
});

async function answer(task: BatchTask): Promise<Omit<ReplyMessage, 'id'>> {
  try {
    return { result: await analyzeBatch(task) };
  } catch (error) {
    return { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
