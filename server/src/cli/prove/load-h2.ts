// One HTTP/2 request of `prove`'s load, on a session of its own that is closed once the reply has ended (HTTP/2's
// `Connection: close`: nginx's upstream connection is then free, as after an HTTP/1.1 request). A gRPC location gets a
// unary call as gRPC clients send it (POST, application/grpc, te: trailers, one empty message); any other location of
// a cleartext HTTP/2 port a GET. cleartext: h2c with prior knowledge; TLS: ALPN h2.
import { connect } from 'node:http2';
import type { Certificate } from './certificate.js';
import { EMPTY_GRPC_MESSAGE } from './grpc-stub.js';
import { tlsClient, type RequestTarget } from './request-target.js';

/** The reply's :status, 0 when there was none (the session or stream failed). */
export function onceH2(target: RequestTarget, client: Certificate): Promise<number> {
  return new Promise((resolve) => {
    const authority = `${target.tls ? 'https' : 'http'}://127.0.0.1:${target.port}`;
    const session = connect(authority, target.tls ? tlsClient(target.host, client) : {});
    let status = 0;
    let settled = false;
    const done = (code: number): void => {
      if (settled) return;
      settled = true;
      session.close();
      resolve(code);
    };
    session.on('error', () => done(0));
    const headers = target.grpc
      ? { ':method': 'POST', ':path': target.path, ':authority': target.host, 'content-type': 'application/grpc', te: 'trailers' }
      : { ':method': 'GET', ':path': target.path, ':authority': target.host };
    const stream = session.request(headers, { endStream: !target.grpc });
    stream.on('response', (response) => (status = Number(response[':status']) || 0));
    stream.on('error', () => done(0));
    stream.on('close', () => done(status));
    stream.resume();
    if (target.grpc) stream.end(EMPTY_GRPC_MESSAGE);
  });
}
