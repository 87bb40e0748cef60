// One side of `prove` (as written, or as fixed): the sandbox written into its own folder of the prefix, `nginx -t`,
// nginx started, each measured location's requests sent in turn, the stub's count of connections per location.
import { buildSandbox, type PlannedLocation } from '../../engine/sandbox-config.js';
import type { Workspace } from '../../model/workspace.js';
import { sendLoad, sendUpgrade } from './load.js';
import { startNginx, type RunningNginx } from './nginx-process.js';
import { acceptedSandbox, SandboxRejected } from './sandbox-run.js';
import { freePort, type CountingStub } from './stub.js';

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
  stub: CountingStub;
  /** The FastCGI responder; a location reaches one of the two, so its count is their sum. */
  fastcgi: CountingStub;
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
        context.stub.reset();
        context.fastcgi.reset();
        const load = await sendLoad({ port: plan.port, host: plan.server, path: plan.path }, context.requests, context.concurrency, context.stopped);
        const http = context.stub.tally();
        const fastcgi = context.fastcgi.tally();
        const seen = { connections: http.connections + fastcgi.connections, requests: http.requests + fastcgi.requests };
        // After the count: the upgrade's own connection is never cached by nginx, so it is not one of the location's.
        const websocket = plan.websocket ? await sendUpgrade({ port: plan.port, host: plan.server, path: plan.path }) : null;
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

function stubPorts(context: MeasureContext): { stubPort: number; fastcgiPort: number } {
  return { stubPort: context.stub.port, fastcgiPort: context.fastcgi.port };
}

async function start(context: MeasureContext, dir: string, conf: string, ports: number[]): Promise<RunningNginx> {
  try {
    return await startNginx(context.binary, dir, conf, ports, context.deadline, context.track);
  } catch (error) {
    throw new SandboxRejected(error instanceof Error ? error.message : String(error));
  }
}
