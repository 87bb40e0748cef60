// Clients for the live tests, all of the kind that sends `Connection: close` (scripts, health checkers, HTTP/1.0
// tools): Node's http client without an agent, a raw HTTP/1.1 request, and a raw HTTP/1.0 request. Each opens its own
// connection to nginx and reads the whole response. A WebSocket upgrade client checks the tunnel end to end.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { websocketAccept } from './live-upstream.js';

export interface Reply {
  status: number;
  body: string;
}

export type ClientKind = 'node-http' | 'raw-http/1.1' | 'raw-http/1.0';
export const CLIENT_KINDS: readonly ClientKind[] = ['node-http', 'raw-http/1.1', 'raw-http/1.0'];

type RequestFunction = (options: HttpsRequestOptions, onResponse: (res: IncomingMessage) => void) => ClientRequest;

/** One request on its own connection (no agent) asking for Connection: close; resolves with the whole body. */
function requestOnce(send: RequestFunction, options: HttpsRequestOptions): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = send(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function nodeHttpGet(port: number, path: string): Promise<Reply> {
  return requestOnce(httpRequest, { host: '127.0.0.1', port, path, agent: false, headers: { Host: 'x', Connection: 'close' } });
}

/** Writes `head` on a fresh connection and reads until nginx closes it (it does, the client asked for close). */
function rawExchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parseRaw(text: string): Reply {
  const split = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
  if (split === -1 || !status) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  return { status: Number(status[1]), body: text.slice(split + 4) };
}

export async function get(kind: ClientKind, port: number, path = '/'): Promise<Reply> {
  switch (kind) {
    case 'node-http':
      return nodeHttpGet(port, path);
    case 'raw-http/1.1':
      return parseRaw(await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    case 'raw-http/1.0':
      return parseRaw(await rawExchange(port, `GET ${path} HTTP/1.0\r\nHost: x\r\nConnection: close\r\n\r\n`));
  }
}

/** One HTTPS request (Node's client, no agent, Connection: close) to a listener with a self-signed certificate. */
export function httpsGet(port: number, path = '/'): Promise<Reply> {
  const headers = { Host: 'x', Connection: 'close' };
  return requestOnce(httpsRequest, { host: '127.0.0.1', port, path, agent: false, rejectUnauthorized: false, headers });
}

export interface LoadResult {
  requests: number;
  /** Replies other than 200 with the expected body, as `status body` lines (empty when all were right). */
  wrong: string[];
}

/**
 * Sends `count` GET requests with at most `concurrency` in flight, the client kinds taking turns, and checks each
 * reply is `200` with `expectedBody`.
 */
export async function sendLoad(
  port: number,
  count: number,
  concurrency: number,
  expectedBody: string,
): Promise<LoadResult> {
  let next = 0;
  const wrong: string[] = [];
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const reply = await get(CLIENT_KINDS[index % CLIENT_KINDS.length]!, port, `/request/${index}`);
      if (reply.status !== 200 || reply.body !== expectedBody) wrong.push(`${reply.status} ${reply.body.slice(0, 80)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests: count, wrong };
}

export interface UpgradeResult {
  statusLine: string;
  acceptOk: boolean;
  /** The message sent through the tunnel after the 101. */
  sent: string;
  /** What came back through the tunnel after the 101 (the upstream echoes). */
  echoed: string;
}

/**
 * A WebSocket opening handshake through nginx: resolves with the status line, whether Sec-WebSocket-Accept matches the
 * key, and what the upstream echoed of a message sent after the switch. Settles as soon as the echo is complete, or
 * as soon as the response head shows nginx did not switch.
 */
export function websocketUpgrade(port: number, path = '/socket'): Promise<UpgradeResult> {
  const key = randomBytes(16).toString('base64');
  const message = `ping ${key}`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    let received: Buffer = Buffer.alloc(0);
    let head: { statusLine: string; acceptOk: boolean } | undefined;
    const finish = (echoed: string): void => {
      socket.destroy();
      const statusLine = head?.statusLine ?? received.toString('utf8').split('\r\n')[0]!;
      resolve({ statusLine, acceptOk: head?.acceptOk ?? false, sent: message, echoed });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!head) {
        const end = received.indexOf('\r\n\r\n');
        if (end === -1) return;
        const lines = received.subarray(0, end).toString('utf8').split('\r\n');
        const accept = lines.find((line) => /^sec-websocket-accept:/i.test(line))?.split(':')[1]?.trim();
        head = { statusLine: lines[0]!, acceptOk: accept === websocketAccept(key) };
        received = received.subarray(end + 4);
        const switched = /^HTTP\/1\.1 101 /.test(head.statusLine);
        // Not switched: the status line is the answer (nginx may keep the connection open, so no end to wait for).
        if (!switched) return finish('');
        socket.write(message);
      }
      if (received.length >= message.length) finish(received.toString('utf8'));
    });
    socket.on('end', () => finish(received.toString('utf8')));
    socket.on('error', reject);
  });
}
