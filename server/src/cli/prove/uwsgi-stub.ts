// The counting uwsgi stub every rewritten uwsgi_pass target (and member of an upstream uwsgi_pass names) points at.
// A uwsgi request is a 4-byte header (modifier1, the size of the variables as 16-bit little-endian, modifier2), the
// variables (each a 16-bit little-endian length and bytes, name then value), then CONTENT_LENGTH bytes of body. The
// stub answers each with an HTTP status line and a Content-Length, as uWSGI does, and never closes the connection
// itself: whether a connection serves a second request is nginx's choice alone, which is what prove measures.
import type { Socket } from 'node:net';
import type { Certificate } from './certificate.js';
import { startRawStub, STUB_BODY, type CountingStub } from './stub.js';

/** No request nginx sends is near this: a peer that claims more is not nginx, and its connection is dropped. */
const MAX_BUFFERED = 1 << 20;

/** The variables of one uwsgi packet body: name -> value. */
function uwsgiVars(body: Buffer): Map<string, string> {
  const vars = new Map<string, string>();
  let at = 0;
  while (at + 2 <= body.length) {
    const nameLength = body.readUInt16LE(at);
    const name = body.toString('latin1', at + 2, at + 2 + nameLength);
    at += 2 + nameLength;
    if (at + 2 > body.length) break;
    const valueLength = body.readUInt16LE(at);
    vars.set(name, body.toString('latin1', at + 2, at + 2 + valueLength));
    at += 2 + valueLength;
  }
  return vars;
}

const RESPONSE = `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(STUB_BODY)}\r\n\r\n${STUB_BODY}`;

/** With a certificate: the suwsgi:// (uwsgi over TLS) stub. */
export function startUwsgiStub(tls?: Certificate): Promise<CountingStub> {
  return startRawStub((socket: Socket, served) => {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_BUFFERED) return socket.destroy();
      while (buffered.length >= 4) {
        const size = buffered.readUInt16LE(1);
        if (buffered.length < 4 + size) break;
        const bodyLength = Number(uwsgiVars(buffered.subarray(4, 4 + size)).get('CONTENT_LENGTH') || 0);
        if (!Number.isSafeInteger(bodyLength) || bodyLength < 0 || bodyLength > MAX_BUFFERED) return socket.destroy();
        if (buffered.length < 4 + size + bodyLength) break;
        buffered = buffered.subarray(4 + size + bodyLength);
        served();
        socket.write(RESPONSE);
      }
    });
  }, tls);
}
