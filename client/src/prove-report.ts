// What `prove --format json` printed (docs/prove.md has the schema), read into the rows the prove view shows. Pure
// and without `vscode`: the verdicts are the CLI's (`reuses`, `statusesChanged`, `websocketBroken`, `skipped`, the
// summary line); the client only words them, as the CLI's own table does.
import type { ProveExit } from './prove-run.js';

export interface ProveSide {
  connections: number;
  upstreamRequests: number;
  requests: number;
  /** Status code → how many responses; "0" is no reply. */
  statuses: Record<string, number>;
}

export interface ProveJsonLocation {
  file: string;
  line: number;
  server: string;
  location: string;
  request: { method: string; host: string; path: string } | null;
  before: ProveSide | null;
  after: ProveSide | null;
  websocket: { before: number; after: number } | null;
  skipped: string | null;
  why: string[];
  reuses: boolean | null;
  statusesChanged: boolean;
  websocketBroken: boolean;
}

export interface ProveJson {
  nginx: { binary: string; version: string | null };
  requests: number;
  concurrency: number;
  unsafeFixes: boolean;
  bound: number;
  locations: ProveJsonLocation[];
  summary: string;
}

export type ProveOutcome =
  /** prove ran (exit 0, or 1: a location still opens a connection per request, or its responses changed). */
  | { kind: 'report'; report: ProveJson; status: number; notes: string[] }
  /** It could not run (exit 2: no nginx, nginx rejected the sandbox, a template...): what it said. */
  | { kind: 'failed'; status: number | null; message: string }
  | { kind: 'cancelled' };

export type Verdict = 'already' | 'fixed' | 'still' | 'skipped';

export interface ProveRow {
  where: string;
  server: string;
  location: string;
  /** `GET host/path`, the request sent; null when skipped before any was. */
  request: string | null;
  before: ProveSide | null;
  after: ProveSide | null;
  verdict: Verdict;
  /** The verdict in words, or the reason the location was not measured. */
  verdictText: string;
  /** `200×200` as written → as fixed; null when not measured. */
  statuses: string | null;
  /** `101 → 101` for a location that carries WebSockets. */
  websocket: string | null;
  /** What the fixes broke: changed responses, a WebSocket upgrade that stopped working. */
  warnings: string[];
  /** Why a location still opens a connection per request: the findings the fixes left in it. */
  why: string[];
}

function isReport(value: unknown): value is ProveJson {
  const report = value as Partial<ProveJson> | null;
  return typeof report === 'object' && report !== null && Array.isArray(report.locations) && typeof report.summary === 'string';
}

/** The lines of stderr, without the CLI's `nginx-keepalive: ` prefix. */
function stderrLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.replace(/^nginx-keepalive: /, '').trimEnd())
    .filter((line) => line !== '');
}

export function readOutcome(exit: ProveExit): ProveOutcome {
  if (exit.cancelled) return { kind: 'cancelled' };
  if (exit.code === 0 || exit.code === 1) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(exit.stdout);
    } catch {
      parsed = undefined;
    }
    if (isReport(parsed)) return { kind: 'report', report: parsed, status: exit.code, notes: stderrLines(exit.stderr) };
  }
  const said = stderrLines(exit.stderr);
  const message =
    said.length > 0 ? said.join('\n') : exit.stdout.trim() || `prove ended with ${exit.code === null ? `signal ${exit.signal}` : `exit ${exit.code}`}`;
  return { kind: 'failed', status: exit.code, message };
}

function statusText(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([status, count]) => `${count}×${status === '0' ? 'no reply' : status}`)
    .join(' ');
}

const upgradeStatus = (code: number): string => (code === 0 ? 'no reply' : String(code));

function verdictOf(entry: ProveJsonLocation, bound: number): { verdict: Verdict; text: string } {
  if (entry.skipped !== null || !entry.before || !entry.after || entry.reuses === null) {
    return { verdict: 'skipped', text: `not measured: ${entry.skipped ?? 'no measurement'}` };
  }
  if (entry.reuses === false) return { verdict: 'still', text: `still opens a connection per request after the fixes (over ${bound})` };
  return entry.before.connections <= bound
    ? { verdict: 'already', text: 'reuses connections already (as written)' }
    : { verdict: 'fixed', text: 'reuses connections after the fixes' };
}

export function proveRows(report: ProveJson): ProveRow[] {
  return report.locations.map((entry) => {
    const { verdict, text } = verdictOf(entry, report.bound);
    const measured = entry.before !== null && entry.after !== null;
    const warnings = [
      ...(entry.statusesChanged ? ['the responses changed with the fixes'] : []),
      ...(entry.websocketBroken ? ['the WebSocket upgrade no longer works after the fixes'] : []),
    ];
    return {
      where: `${entry.file}:${entry.line}`,
      server: entry.server,
      location: entry.location,
      request: entry.request ? `${entry.request.method} ${entry.request.host}${entry.request.path}` : null,
      before: entry.before,
      after: entry.after,
      verdict,
      verdictText: text,
      statuses: measured ? `${statusText(entry.before!.statuses)} → ${statusText(entry.after!.statuses)}` : null,
      websocket: entry.websocket ? `${upgradeStatus(entry.websocket.before)} → ${upgradeStatus(entry.websocket.after)}` : null,
      warnings,
      why: entry.why ?? [],
    };
  });
}
