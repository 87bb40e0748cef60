// The counting stub every rewritten upstream server and literal proxy_pass target points at: Node's HTTP/1.1 server
// on 127.0.0.1 (keep-alive, as real application servers), counting the requests it answers and the distinct TCP
// connections that carried them. Locations are measured one at a time, so the count between two resets is one
// location's: a connection nginx kept idle from an earlier location and reuses for this one is one of this
// location's connections (counted once), so a location's count never depends on what was measured before it.
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
  /** The distinct upstream connections that carried at least one of the requests. */
  connections: number;
  requests: number;
}

/** The requests a stub answers since the last reset, and the connections (a socket, an HTTP/2 session) they came on. */
export class RequestCounter {
  private readonly carriers = new Set<object>();
  private requests = 0;

  /** One request, on `connection`. */
  served(connection: object): void {
    this.requests++;
    this.carriers.add(connection);
  }

  tally(): Tally {
    return { connections: this.carriers.size, requests: this.requests };
  }

  reset(): void {
    this.carriers.clear();
    this.requests = 0;
  }
}

/** Listens on a free 127.0.0.1 port; the stub's sockets are destroyed on close, so nginx's idle ones do not hold it. */
export function listenCounting(server: NetServer, counter: RequestCounter, sockets: Set<Socket>): Promise<CountingStub> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        tally: () => counter.tally(),
        reset: () => counter.reset(),
        close: async () => {
          for (const socket of sockets) socket.destroy();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/**
 * A stub speaking a protocol of its own on each TCP connection (uwsgi, SCGI), over TLS when given a certificate:
 * `serve` reads the connection's requests and counts each with `served()`.
 */
export function startRawStub(serve: (socket: Socket, served: () => void) => void, tls?: Certificate): Promise<CountingStub> {
  const counter = new RequestCounter();
  const sockets = new Set<Socket>();
  const handle = (socket: Socket): void => serve(socket, () => counter.served(socket));
  const server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handle) : createNetServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  return listenCounting(server, counter, sockets);
}

/** The HTTP/1.1 stub; with a certificate, HTTPS (for `https://` targets). */
export function startStub(tls?: Certificate): Promise<CountingStub> {
  const counter = new RequestCounter();
  const sockets = new Set<Socket>();
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    counter.served(request.socket);
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
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A WebSocket handshake (RFC 6455 section 4.2.2): 101 with the accept key, then every byte sent back, so prove sees
  // the upgraded connection carry data through nginx both ways.
  server.on('upgrade', (request: IncomingMessage, socket: Socket) => {
    counter.served(socket);
    const key = request.headers['sec-websocket-key'];
    const accept = createHash('sha1').update(`${typeof key === 'string' ? key : ''}${WEBSOCKET_GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  return listenCounting(server, counter, sockets);
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
