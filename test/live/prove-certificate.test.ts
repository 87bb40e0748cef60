// The certificate `prove` makes for a run (cli/prove/certificate.ts, DER written by hand): OpenSSL, as Node and nginx
// link it, must accept it whatever its random serial, as a server certificate and as the CA of itself.
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { generateCertificate } from '../../server/src/cli/prove/certificate.js';

describe("prove's generated certificate", () => {
  // All zeros: a serial whose first bytes DER would drop (OpenSSL refused the unminimised form: "illegal padding").
  it.each([['zeros', Buffer.alloc(16)], ['ones', Buffer.alloc(16, 0xff)]])('loads with a serial of %s, and verifies as its own CA', (_, serial) => {
    const { cert, key } = generateCertificate(new Date(), serial);
    expect(() => createSecureContext({ cert, key })).not.toThrow();
    const parsed = new X509Certificate(cert);
    expect(parsed.ca).toBe(true);
    expect(parsed.checkIssued(parsed)).toBe(true);
    expect(Date.parse(parsed.validTo)).toBeGreaterThan(Date.now());
    const dir = mkdtempSync(path.join(tmpdir(), 'nk-prove-cert-'));
    try {
      writeFileSync(path.join(dir, 'cert.pem'), cert);
      const verified = spawnSync('openssl', ['verify', '-CAfile', path.join(dir, 'cert.pem'), path.join(dir, 'cert.pem')], { encoding: 'utf8' });
      expect(verified.stdout + verified.stderr).toContain(': OK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
