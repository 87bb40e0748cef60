// The counting gRPC stub every rewritten grpc_pass target (and member of an upstream grpc_pass names) points at:
// Node's HTTP/2 server, cleartext for grpc:// (h2c with prior knowledge, as nginx speaks it) or TLS for grpcs://,
// answering every stream as a unary gRPC call does (200, application/grpc, one empty message, grpc-status 0 in the
// trailers). It counts the streams it answers and the HTTP/2 connections (sessions) that carried them; nginx
// multiplexes nothing to its upstreams, so a kept connection shows up as fewer connections than requests.
import { createSecureServer, createServer, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { Certificate } from './certificate.js';
import { listenCounting, RequestCounter, type CountingStub } from './stub.js';

/** A gRPC message: not compressed (0), 4-byte big-endian length, then the (empty) protobuf. */
export const EMPTY_GRPC_MESSAGE = Buffer.from([0, 0, 0, 0, 0]);

export function startGrpcStub(tls?: Certificate): Promise<CountingStub> {
  const counter = new RequestCounter();
  const sockets = new Set<Socket>();
  const server = tls ? createSecureServer({ cert: tls.cert, key: tls.key }) : createServer();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  server.on('sessionError', () => {});
  server.on('stream', (stream: ServerHttp2Stream) => {
    counter.served(stream.session ?? stream);
    stream.on('error', () => stream.destroy());
    stream.resume();
    stream.once('end', () => {
      if (stream.destroyed) return;
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(EMPTY_GRPC_MESSAGE);
    });
  });
  return listenCounting(server, counter, sockets);
}
