// Entry of dist/cli-worker.js: analyzes the batches the main thread posts (and scans texts for the grouping), one
// reply per task.
import { parentPort } from 'node:worker_threads';
import { analyzeBatch, type BatchTask } from './analyze-batch.js';
import { statementsOf } from './linking-statements.js';
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
  queue = queue.then(async () => port.postMessage({ id: message.id, ...(await answer(message)) } satisfies ReplyMessage));
});

async function answer(message: Exclude<TaskMessage, { close: true }>): Promise<Omit<ReplyMessage, 'id'>> {
  try {
    if ('texts' in message) return { statements: message.texts.map(statementsOf) };
    return { result: await analyzeBatch(message.task) };
  } catch (error) {
    return { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
