// Stub ports and a certificate for tests that build prove's sandbox without running it (engine/sandbox-config.ts):
// nothing listens on the ports; the certificate is written only where nginx -t is to read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateCertificate } from '../../server/src/cli/prove/certificate.js';
import type { SandboxOptions } from '../../server/src/engine/sandbox-config.js';

export const STUB_PORTS = { http: 40000, fastcgi: 40001, https: 40002, uwsgi: 40003, suwsgi: 40004, scgi: 40005, grpc: 40006, grpcs: 40007 };

/** The stub part of SandboxOptions; with `certificateDir`, a real certificate and key are written there. */
export function sandboxStubs(certificateDir = '/sandbox-certificate', write = false): Omit<SandboxOptions, 'prefix' | 'nextPort'> {
  const certificate = { cert: path.join(certificateDir, 'cert.pem'), key: path.join(certificateDir, 'key.pem') };
  if (write) {
    const pem = generateCertificate();
    mkdirSync(certificateDir, { recursive: true });
    writeFileSync(certificate.cert, pem.cert);
    writeFileSync(certificate.key, pem.key);
  }
  const { http, fastcgi, ...protocolPorts } = STUB_PORTS;
  return { stubPort: http, fastcgiPort: fastcgi, protocolPorts, certificate };
}
