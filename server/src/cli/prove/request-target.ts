// Where one location's requests go and how (engine/sandbox-plan.ts decides), and the TLS client options they use.
import { isIP } from 'node:net';
import type { Certificate } from './certificate.js';

/** Where a location's requests go, and how (engine/sandbox-plan.ts). */
export interface RequestTarget {
  port: number;
  host: string;
  path: string;
  tls: boolean;
  protocol: 'HTTP/1.1' | 'HTTP/2';
  grpc: boolean;
}

/** The TLS client options: SNI (never an IP address, which TLS does not allow), no verification, the certificate. */
export function tlsClient(host: string, client: Certificate): { servername?: string; rejectUnauthorized: false; cert: string; key: string } {
  return { ...(isIP(host) === 0 ? { servername: host } : {}), rejectUnauthorized: false, cert: client.cert, key: client.key };
}
