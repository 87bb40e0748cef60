// The counting FastCGI responder every rewritten fastcgi_pass target and FastCGI upstream member points at: it reads
// FastCGI records (BEGIN_REQUEST, PARAMS, STDIN), answers each request with STDOUT and END_REQUEST, and, as PHP-FPM
// does, closes the connection after the response unless BEGIN_REQUEST set FCGI_KEEP_CONN (what `fastcgi_keep_conn
// on` asks for). It counts the requests it answers and the connections that carried them, like the HTTP stub.
import { createServer, type Socket } from 'node:net';
import type { CountingStub } from './stub.js';
import { listenCounting, RequestCounter, STUB_BODY } from './stub.js';

const VERSION = 1;
const BEGIN_REQUEST = 1;
const END_REQUEST = 3;
const STDIN = 5;
const STDOUT = 6;
const KEEP_CONN = 1;
/** No record nginx sends is near this: a peer that claims more is not nginx, and its connection is dropped. */
const MAX_BUFFERED = 1 << 20;

function record(type: number, requestId: number, content: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt8(VERSION, 0);
  header.writeUInt8(type, 1);
  header.writeUInt16BE(requestId, 2);
  header.writeUInt16BE(content.length, 4);
  return Buffer.concat([header, content]);
}

function response(requestId: number): Buffer {
  const body = `Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(STUB_BODY)}\r\n\r\n${STUB_BODY}`;
  // END_REQUEST: appStatus 0, protocolStatus FCGI_REQUEST_COMPLETE (0).
  return Buffer.concat([
    record(STDOUT, requestId, Buffer.from(body)),
    record(STDOUT, requestId, Buffer.alloc(0)),
    record(END_REQUEST, requestId, Buffer.alloc(8)),
  ]);
}

export function startFastcgiStub(): Promise<CountingStub> {
  const counter = new RequestCounter();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    const keepConn = new Map<number, boolean>();
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_BUFFERED) return socket.destroy();
      while (buffered.length >= 8) {
        const type = buffered.readUInt8(1);
        const requestId = buffered.readUInt16BE(2);
        const length = buffered.readUInt16BE(4) + buffered.readUInt8(6);
        if (buffered.length < 8 + length) break;
        const content = buffered.subarray(8, 8 + buffered.readUInt16BE(4));
        buffered = buffered.subarray(8 + length);
        if (type === BEGIN_REQUEST) keepConn.set(requestId, content.length >= 3 && (content.readUInt8(2) & KEEP_CONN) !== 0);
        else if (type === STDIN && content.length === 0) {
          // The empty STDIN record ends the request body: answer.
          counter.served(socket);
          const keep = keepConn.get(requestId) ?? false;
          keepConn.delete(requestId);
          socket.write(response(requestId));
          if (!keep) socket.end();
        }
      }
    });
  });
  return listenCounting(server, counter, sockets);
}
