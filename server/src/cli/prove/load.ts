// The requests `prove` sends: GETs on their own connection asking `Connection: close`, as scripts, health checkers
// and many load balancers do, so that whether nginx reuses its upstream connections depends on nginx alone. Over TLS
// to a server that listens with ssl (SNI: the server_name; the run's certificate not verified, and presented as the
// client certificate in case the server asks for one); over HTTP/2 (load-h2.ts) to gRPC and cleartext HTTP/2 ports.
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Certificate } from './certificate.js';
import { onceH2 } from './load-h2.js';
import { tlsClient, type RequestTarget } from './request-target.js';

export interface LoadResult {
  /** Status code -> how many replies had it (0: no reply, the connection failed). */
  statuses: Record<string, number>;
}

function send(target: RequestTarget, client: Certificate, headers: Record<string, string>, onResponse?: (res: IncomingMessage) => void): ClientRequest {
  const options: RequestOptions = { host: '127.0.0.1', port: target.port, path: target.path, agent: false, headers: { Host: target.host, ...headers } };
  return target.tls ? httpsRequest({ ...options, ...tlsClient(target.host, client) }, onResponse) : httpRequest(options, onResponse);
}

function once(target: RequestTarget, client: Certificate): Promise<number> {
  if (target.protocol === 'HTTP/2') return onceH2(target, client);
  return new Promise((resolve) => {
    const req = send(target, client, { Connection: 'close' }, (res) => {
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
  target: RequestTarget,
  client: Certificate,
  count: number,
  concurrency: number,
  stopped: () => boolean,
): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stopped()) {
      next++;
      const status = String(await once(target, client));
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { statuses };
}

/** How long one WebSocket handshake and its echo may take before it counts as failed. */
const UPGRADE_TIMEOUT_MS = 10_000;

/**
 * One WebSocket handshake through nginx: the status nginx answered with, 101 only when the upgraded connection also
 * carried a byte to the stub and back (a 101 that carries nothing is reported as 0, no working upgrade).
 */
export function sendUpgrade(target: RequestTarget, client: Certificate): Promise<number> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(status);
    };
    const req = send(target, client, {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version': '13',
    });
    const timer = setTimeout(() => done(0), UPGRADE_TIMEOUT_MS);
    req.on('upgrade', (res, socket) => {
      socket.on('error', () => done(0));
      socket.once('data', () => {
        socket.destroy();
        done(res.statusCode ?? 0);
      });
      socket.once('close', () => done(0));
      socket.write('x');
    });
    req.on('response', (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', () => done(0));
    req.end();
  });
}
