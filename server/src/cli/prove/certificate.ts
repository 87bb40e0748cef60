// The self-signed certificate of a `prove` run, made in memory with node:crypto (no openssl process): the sandbox's
// TLS listeners, its client-certificate and trusted-certificate settings, the HTTPS and gRPC-over-TLS stubs and the
// load's client certificate all use it. An RSA key (the cipher lists configs commonly pin are RSA ones), a v3
// certificate valid for two days, CA:TRUE so that it can stand as the CA of the client certificate it also is.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface Certificate {
  /** PEM texts. */
  cert: string;
  key: string;
}

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...content: Buffer[]): Buffer => tlv(0x30, ...content);

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const base128: number[] = [];
    for (let value = arc; ; value = Math.floor(value / 128)) {
      base128.unshift((value % 128) | (base128.length > 0 ? 0x80 : 0));
      if (value < 128) break;
    }
    for (const byte of base128) bytes.push(byte);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), tlv(0x05));
const DAY_MS = 24 * 60 * 60 * 1000;

/** `random`: the serial's bytes (tests give their own). */
export function generateCertificate(now = new Date(), random: Buffer = randomBytes(16)): Certificate {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from('nginx-keepalive prove sandbox')))));
  // A positive serial in DER's minimal form: 16 random bytes, the first one 0x40-0x7f (a leading 0x00, or a top bit
  // set, would need another byte: OpenSSL rejects the non-minimal form as "illegal padding").
  const serial = Buffer.from(random);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  const basicConstraints = sequence(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, sequence(tlv(0x01, Buffer.from([0xff])))));
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    SHA256_WITH_RSA,
    name,
    sequence(utcTime(new Date(now.getTime() - DAY_MS)), utcTime(new Date(now.getTime() + DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(basicConstraints)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature));
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
