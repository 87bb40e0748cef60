// The counting SCGI stub every rewritten scgi_pass target (and member of an upstream scgi_pass names) points at. An
// SCGI request is a netstring (`<length>:<headers>,`, the headers NUL-separated name and value pairs, CONTENT_LENGTH
// first) and then CONTENT_LENGTH bytes of body. The stub answers each with a CGI `Status:` header and a
// Content-Length, and never closes the connection itself: whether a connection serves a second request is nginx's
// choice alone, which is what prove measures.
import type { Socket } from 'node:net';
import { startRawStub, STUB_BODY, type CountingStub } from './stub.js';

/** No request nginx sends is near this: a peer that claims more is not nginx, and its connection is dropped. */
const MAX_BUFFERED = 1 << 20;
/** The digits of a netstring's length: more than 7 is more than MAX_BUFFERED. */
const MAX_LENGTH_DIGITS = 7;

const RESPONSE = `Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(STUB_BODY)}\r\n\r\n${STUB_BODY}`;

/** The request at the start of `buffered`: its whole length, 0 when incomplete, -1 when it is not SCGI. */
function requestLength(buffered: Buffer): number {
  const colon = buffered.indexOf(0x3a);
  if (colon === -1) return buffered.length > MAX_LENGTH_DIGITS ? -1 : 0;
  const digits = buffered.toString('latin1', 0, colon);
  if (colon === 0 || colon > MAX_LENGTH_DIGITS || !/^\d+$/.test(digits)) return -1;
  const headersEnd = colon + 1 + Number(digits);
  if (buffered.length < headersEnd + 1) return 0;
  if (buffered[headersEnd] !== 0x2c) return -1;
  const headers = buffered.toString('latin1', colon + 1, headersEnd).split('\0');
  const index = headers.indexOf('CONTENT_LENGTH');
  const bodyLength = index !== -1 && index % 2 === 0 ? Number(headers[index + 1] || 0) : 0;
  if (!Number.isSafeInteger(bodyLength) || bodyLength < 0 || bodyLength > MAX_BUFFERED) return -1;
  const total = headersEnd + 1 + bodyLength;
  return buffered.length < total ? 0 : total;
}

export function startScgiStub(): Promise<CountingStub> {
  return startRawStub((socket: Socket, served) => {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_BUFFERED) return socket.destroy();
      for (let length = requestLength(buffered); length !== 0; length = requestLength(buffered)) {
        if (length < 0) return socket.destroy();
        buffered = buffered.subarray(length);
        served();
        socket.write(RESPONSE);
      }
    });
  });
}
