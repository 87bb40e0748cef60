// A tiny FastCGI responder for the live tests, speaking the FastCGI 1.0 record protocol on loopback: it reads
// BEGIN_REQUEST, PARAMS and STDIN records and answers every request with STDOUT (a CGI response) and END_REQUEST.
// As the specification says, it keeps the connection open only when BEGIN_REQUEST carries FCGI_KEEP_CONN (what nginx
// sends with `fastcgi_keep_conn on;`) and closes it otherwise. It counts the connections nginx opens to it.
import { createServer, type Server, type Socket } from 'node:net';
import { UPSTREAM_BODY } from './live-upstream.js';

const FCGI_VERSION = 1;
const BEGIN_REQUEST = 1;
const END_REQUEST = 3;
const PARAMS = 4;
const STDIN = 5;
const STDOUT = 6;
const FCGI_KEEP_CONN = 1;
const HEADER_LENGTH = 8;
const REQUEST_COMPLETE = 0;

interface FcgiRecord {
  type: number;
  requestId: number;
  content: Buffer;
}

export interface FastcgiPeer {
  port: number;
  tally(): { connections: number; requests: number; keepConnRequests: number };
  reset(): void;
  close(): Promise<void>;
}

function record(type: number, requestId: number, content: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(HEADER_LENGTH);
  header.writeUInt8(FCGI_VERSION, 0);
  header.writeUInt8(type, 1);
  header.writeUInt16BE(requestId, 2);
  header.writeUInt16BE(content.length, 4);
  return Buffer.concat([header, content]);
}

function response(requestId: number): Buffer {
  const length = Buffer.byteLength(UPSTREAM_BODY);
  const cgi = `Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n${UPSTREAM_BODY}`;
  const end = Buffer.alloc(8);
  end.writeUInt32BE(0, 0); // application status
  end.writeUInt8(REQUEST_COMPLETE, 4);
  return Buffer.concat([
    record(STDOUT, requestId, Buffer.from(cgi)),
    record(STDOUT, requestId), // an empty STDOUT ends the stream
    record(END_REQUEST, requestId, end),
  ]);
}

/** Splits complete records off the front of `buffer`; returns them and the unread rest. */
function readRecords(buffer: Buffer): { records: FcgiRecord[]; rest: Buffer } {
  const records: FcgiRecord[] = [];
  let offset = 0;
  while (buffer.length - offset >= HEADER_LENGTH) {
    const contentLength = buffer.readUInt16BE(offset + 4);
    const paddingLength = buffer.readUInt8(offset + 6);
    const total = HEADER_LENGTH + contentLength + paddingLength;
    if (buffer.length - offset < total) break;
    records.push({
      type: buffer.readUInt8(offset + 1),
      requestId: buffer.readUInt16BE(offset + 2),
      content: buffer.subarray(offset + HEADER_LENGTH, offset + HEADER_LENGTH + contentLength),
    });
    offset += total;
  }
  return { records, rest: buffer.subarray(offset) };
}

interface Counts {
  connections: number;
  requests: number;
  keepConnRequests: number;
}

/** Serves one connection: a request is complete at its empty STDIN record. */
function serve(socket: Socket, counts: () => Counts): void {
  let pending: Buffer = Buffer.alloc(0);
  let keepConn = false;
  socket.on('data', (chunk: Buffer) => {
    const { records, rest } = readRecords(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const { type, requestId, content } of records) {
      if (type === BEGIN_REQUEST) {
        keepConn = (content.readUInt8(2) & FCGI_KEEP_CONN) !== 0;
      } else if (type === STDIN && content.length === 0) {
        counts().requests++;
        if (keepConn) counts().keepConnRequests++;
        socket.write(response(requestId));
        if (!keepConn) socket.end();
      } else if (type !== PARAMS && type !== STDIN) {
        socket.destroy(new Error(`unexpected FastCGI record type ${type}`));
      }
    }
  });
  socket.on('error', () => socket.destroy());
}

export async function startFastcgiPeer(host = '127.0.0.1'): Promise<FastcgiPeer> {
  let counts: Counts = { connections: 0, requests: 0, keepConnRequests: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serve(socket, () => counts);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return {
    port,
    tally: () => ({ ...counts }),
    reset: () => {
      counts = { connections: 0, requests: 0, keepConnRequests: 0 };
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
