// Every stub of a `prove` run, one per kind of upstream connection (engine/sandbox-protocols.ts), started once and
// shared by both sides; the TLS ones use the run's generated certificate. A location reaches one of them, so its
// count is their sum.
import type { StubKind } from '../../engine/sandbox-protocols.js';
import type { Certificate } from './certificate.js';
import { startFastcgiStub } from './fastcgi-stub.js';
import { startGrpcStub } from './grpc-stub.js';
import { startScgiStub } from './scgi-stub.js';
import { startStub, type CountingStub, type Tally } from './stub.js';
import { startUwsgiStub } from './uwsgi-stub.js';

export type Stubs = Record<StubKind, CountingStub>;

/** Starts them in turn; `started` receives each at once, so that a failure part way still closes the rest. */
export async function startStubs(certificate: Certificate, started: (stub: CountingStub) => void): Promise<Stubs> {
  const starters: Record<StubKind, () => Promise<CountingStub>> = {
    http: () => startStub(),
    https: () => startStub(certificate),
    fastcgi: () => startFastcgiStub(),
    uwsgi: () => startUwsgiStub(),
    suwsgi: () => startUwsgiStub(certificate),
    scgi: () => startScgiStub(),
    grpc: () => startGrpcStub(),
    grpcs: () => startGrpcStub(certificate),
  };
  const stubs: Partial<Stubs> = {};
  for (const kind of Object.keys(starters) as StubKind[]) {
    const stub = await starters[kind]();
    started(stub);
    stubs[kind] = stub;
  }
  return stubs as Stubs;
}

export function resetAll(stubs: Stubs): void {
  for (const stub of Object.values(stubs)) stub.reset();
}

/** The connections and requests of every stub since the last reset. */
export function tallyAll(stubs: Stubs): Tally {
  const total: Tally = { connections: 0, requests: 0 };
  for (const stub of Object.values(stubs)) {
    const tally = stub.tally();
    total.connections += tally.connections;
    total.requests += tally.requests;
  }
  return total;
}
