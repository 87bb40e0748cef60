// One side of `prove` (as written, or as fixed): the sandbox written into its own folder of the prefix, `nginx -t`,
// nginx started, each measured location's requests sent in turn, the stub's count of connections per location.
import { buildSandbox, type PlannedLocation, type SandboxOptions } from '../../engine/sandbox-config.js';
import type { NginxModules } from '../../engine/sandbox-protocols.js';
import type { Workspace } from '../../model/workspace.js';
import type { Certificate } from './certificate.js';
import { sendLoad, sendUpgrade } from './load.js';
import { startNginx, type RunningNginx } from './nginx-process.js';
import type { RequestTarget } from './request-target.js';
import { acceptedSandbox, SandboxRejected } from './sandbox-run.js';
import { freePort } from './stub.js';
import { resetAll, tallyAll, type Stubs } from './stubs.js';

export interface Measured {
  connections: number;
  /** Requests the stub answered. */
  upstreamRequests: number;
  requests: number;
  statuses: Record<string, number>;
}

export interface SideResult {
  /** `websocket`: the status of one WebSocket upgrade (101 when it works), null when none was sent. */
  locations: { plan: PlannedLocation; measured: Measured | null; websocket: number | null }[];
  notes: string[];
}

export { SandboxRejected } from './sandbox-run.js';

export interface MeasureContext {
  binary: string;
  modules: NginxModules;
  stubs: Stubs;
  /** The run's certificate: its PEM texts (the load's client certificate) and its files in the prefix. */
  certificate: { pem: Certificate; files: { cert: string; key: string } };
  requests: number;
  concurrency: number;
  deadline: number;
  /** Where the running nginx is kept, from its spawn on, so that a timeout or Ctrl-C can stop it. */
  track(nginx: RunningNginx | undefined): void;
  /** A load_module argument as the local nginx has it (cli/prove/sandbox-run.ts: localModules). */
  module(argument: string): string | undefined;
  /** True once a timeout or Ctrl-C stopped the run: nothing more is started. */
  stopped(): boolean;
}

export async function measureSide(workspace: Workspace, dir: string, context: MeasureContext): Promise<SideResult> {
  const alive = (): void => {
    if (context.stopped()) throw new SandboxRejected('stopped');
  };
  alive();
  // Ports are asked for once the number of servers is known (a first build only counts them).
  let servers = 0;
  buildSandbox(workspace, { ...stubPorts(context), prefix: dir, nextPort: () => servers++ });
  const ports: number[] = [];
  for (let index = 0; index < servers; index++) ports.push(await freePort());
  let next = 0;
  // Each build asks the same ports again, in the same order (one per server).
  const nextPort = (): number => ports[next++ % ports.length]!;
  const sandbox = acceptedSandbox(workspace, dir, context.binary, { ...stubPorts(context), nextPort, module: context.module });
  const locations: SideResult['locations'] = [];
  for (const instance of sandbox.instances) {
    alive();
    const measuredPorts = [...new Set(instance.locations.filter((plan) => plan.skipped === null).map((plan) => plan.port))];
    const nginx = measuredPorts.length > 0 ? await start(context, dir, instance.mainConf, measuredPorts) : undefined;
    try {
      for (const plan of instance.locations) {
        alive();
        if (plan.skipped !== null) {
          locations.push({ plan, measured: null, websocket: null });
          continue;
        }
        resetAll(context.stubs);
        const target: RequestTarget = { port: plan.port, host: plan.server, path: plan.path, tls: plan.tls, protocol: plan.protocol, grpc: plan.grpc };
        const load = await sendLoad(target, context.certificate.pem, context.requests, context.concurrency, context.stopped);
        const seen = tallyAll(context.stubs);
        // After the count: the upgrade's own connection is never cached by nginx, so it is not one of the location's.
        const websocket = plan.websocket ? await sendUpgrade({ ...target, protocol: 'HTTP/1.1' }, context.certificate.pem) : null;
        locations.push({
          plan,
          measured: { connections: seen.connections, upstreamRequests: seen.requests, requests: context.requests, statuses: load.statuses },
          websocket,
        });
      }
    } finally {
      await nginx?.stop();
      context.track(undefined);
    }
  }
  return { locations, notes: sandbox.notes };
}

function stubPorts(context: MeasureContext): Omit<SandboxOptions, 'prefix' | 'nextPort'> {
  const { stubs } = context;
  return {
    stubPort: stubs.http.port,
    fastcgiPort: stubs.fastcgi.port,
    protocolPorts: { https: stubs.https.port, uwsgi: stubs.uwsgi.port, suwsgi: stubs.suwsgi.port, scgi: stubs.scgi.port, grpc: stubs.grpc.port, grpcs: stubs.grpcs.port },
    certificate: context.certificate.files,
    modules: context.modules,
  };
}

async function start(context: MeasureContext, dir: string, conf: string, ports: number[]): Promise<RunningNginx> {
  try {
    return await startNginx(context.binary, dir, conf, ports, context.deadline, context.track);
  } catch (error) {
    throw new SandboxRejected(error instanceof Error ? error.message : String(error));
  }
}
