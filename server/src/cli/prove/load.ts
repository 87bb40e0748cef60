// The requests `prove` sends: GETs on their own connection asking `Connection: close`, as scripts, health checkers
// and many load balancers do, so that whether nginx reuses its upstream connections depends on nginx alone.
import { request } from 'node:http';

export interface LoadResult {
  /** Status code -> how many replies had it (0: no reply, the connection failed). */
  statuses: Record<string, number>;
}

function once(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { Host: host, Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** `count` requests with at most `concurrency` in flight; none is started once `stopped()` (timeout, Ctrl-C). */
export async function sendLoad(
  target: { port: number; host: string; path: string },
  count: number,
  concurrency: number,
  stopped: () => boolean,
): Promise<LoadResult> {
  const { port, host, path } = target;
  const statuses: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stopped()) {
      next++;
      const status = String(await once(port, host, path));
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { statuses };
}
