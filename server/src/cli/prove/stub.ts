// The counting stub every rewritten upstream server and literal proxy_pass target points at: Node's HTTP/1.1 server
// on 127.0.0.1 (keep-alive, as real application servers), counting the TCP connections nginx opens to it and the
// requests it answers. Locations are measured one at a time, so the count between two resets is one location's.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Certificate } from './certificate.js';

/** The body every request gets, so a reply from the stub is told apart from an nginx error page. */
export const STUB_BODY = 'hello from the nginx-keepalive prove stub\n';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface CountingStub {
  port: number;
  tally(): Tally;
  reset(): void;
  close(): Promise<void>;
}

/** What a stub counts between two resets. */
export interface Tally {
  connections: number;
  requests: number;
}

/** Listens on a free 127.0.0.1 port; the stub's sockets are destroyed on close, so nginx's idle ones do not hold it. */
export function listenCounting(server: NetServer, tally: Tally, sockets: Set<Socket>): Promise<CountingStub> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        tally: () => ({ ...tally }),
        reset: () => {
          tally.connections = 0;
          tally.requests = 0;
        },
        close: async () => {
          for (const socket of sockets) socket.destroy();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/**
 * A stub speaking a protocol of its own on each TCP connection (uwsgi, SCGI), over TLS when given a certificate: it
 * counts the connections; `serve` reads the connection's requests and counts them in the tally.
 */
export function startRawStub(serve: (socket: Socket, tally: Tally) => void, tls?: Certificate): Promise<CountingStub> {
  const tally: Tally = { connections: 0, requests: 0 };
  const sockets = new Set<Socket>();
  const server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, (socket) => serve(socket, tally)) : createNetServer((socket) => serve(socket, tally));
  // The TCP connection, before any TLS handshake: what nginx opened.
  server.on('connection', (socket: Socket) => {
    tally.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  return listenCounting(server, tally, sockets);
}

/** The HTTP/1.1 stub; with a certificate, HTTPS (for `https://` targets). */
export function startStub(tls?: Certificate): Promise<CountingStub> {
  const tally: Tally = { connections: 0, requests: 0 };
  const sockets = new Set<Socket>();
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    tally.requests++;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(STUB_BODY) });
      response.end(STUB_BODY);
    });
  };
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createServer(handler);
  // nginx keeps idle upstream connections for 60 s; Node's 5 s default would race nginx reusing them.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket: Socket) => {
    tally.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A WebSocket handshake (RFC 6455 section 4.2.2): 101 with the accept key, then every byte sent back, so prove sees
  // the upgraded connection carry data through nginx both ways.
  server.on('upgrade', (request: IncomingMessage, socket: Socket) => {
    tally.requests++;
    const key = request.headers['sec-websocket-key'];
    const accept = createHash('sha1').update(`${typeof key === 'string' ? key : ''}${WEBSOCKET_GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  return listenCounting(server, tally, sockets);
}

/** A free TCP port on 127.0.0.1, asked from the kernel and released (nginx binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
