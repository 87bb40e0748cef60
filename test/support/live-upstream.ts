// A real HTTP/1.1 upstream for the live tests: Node's http server on loopback, counting the TCP connections nginx opens
// to it (the server's 'connection' event) and the requests it answers. It answers `Upgrade: websocket` requests with
// `101 Switching Protocols` and then echoes whatever comes through the tunnel, so a test can prove an upgrade still
// reaches it through nginx. It may listen on several loopback addresses with one port, as a Dokku upstream lists
// each container as `<ip>:<upstream port>`.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** The body every ordinary request gets, so a client can tell the upstream answered (not an nginx error page). */
export const UPSTREAM_BODY = 'hello from the upstream\n';

/** RFC 6455's fixed GUID, for the Sec-WebSocket-Accept answer. */
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface Tally {
  /** TCP connections accepted, per listening address. */
  connections: Map<string, number>;
  requests: number;
  upgrades: number;
}

export interface LiveUpstream {
  port: number;
  hosts: readonly string[];
  /** What the upstream has seen since it started or since the last reset(). */
  tally(): { connections: number; perHost: Record<string, number>; requests: number; upgrades: number };
  reset(): void;
  close(): Promise<void>;
}

function emptyTally(hosts: readonly string[]): Tally {
  return { connections: new Map(hosts.map((host) => [host, 0])), requests: 0, upgrades: 0 };
}

export function websocketAccept(key: string): string {
  return createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64');
}

function answerUpgrade(request: IncomingMessage, socket: Duplex, tally: Tally): void {
  const key = request.headers['sec-websocket-key'];
  if (request.headers.upgrade?.toLowerCase() !== 'websocket' || typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    return;
  }
  tally.upgrades++;
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${websocketAccept(key)}\r\n\r\n`,
  );
  // After the switch the connection is a tunnel: echo, so the client sees its own bytes come back through nginx.
  socket.pipe(socket);
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Starts the upstream on `hosts` (loopback addresses), all on one port chosen by the kernel for the first host.
 * Every loopback address of 127.0.0.0/8 is local on Linux, so 127.0.0.2 needs no setup.
 */
export async function startLiveUpstream(hosts: readonly string[] = ['127.0.0.1']): Promise<LiveUpstream> {
  let tally = emptyTally(hosts);
  const sockets = new Set<Socket>();
  const servers = hosts.map((host) => {
    const server = createServer((request, response) => {
      tally.requests++;
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(UPSTREAM_BODY) });
        response.end(UPSTREAM_BODY);
      });
    });
    // nginx keeps idle upstream connections for 60 s; a shorter server-side timeout (Node's default is 5 s) would
    // race nginx reusing them on a slow machine.
    server.keepAliveTimeout = 120_000;
    server.on('connection', (socket: Socket) => {
      tally.connections.set(host, (tally.connections.get(host) ?? 0) + 1);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('upgrade', (request, socket) => answerUpgrade(request, socket, tally));
    return server;
  });
  let port = 0;
  try {
    for (const [index, server] of servers.entries()) port = await listen(server, hosts[index]!, port);
  } catch (error) {
    servers.forEach((server) => server.close());
    throw error;
  }
  return {
    port,
    hosts,
    tally: () => {
      const perHost = Object.fromEntries(tally.connections);
      const connections = [...tally.connections.values()].reduce((a, b) => a + b, 0);
      return { connections, perHost, requests: tally.requests, upgrades: tally.upgrades };
    },
    reset: () => {
      tally = emptyTally(hosts);
    },
    close: async () => {
      // Upgraded sockets are no longer the http server's, so closeAllConnections() would miss them.
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
