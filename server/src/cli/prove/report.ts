// `prove`'s report: the two sides matched location by location (fixes add directives and upstreams, never locations
// or passes, so the n-th pass as written is the n-th as fixed), the verdict per location, the table and the JSON.
import path from 'node:path';
import { displayPath } from '../../util/paths.js';
import type { Finding } from '../../util/types.js';
import type { ProveOptions } from '../args.js';
import type { Measured, SideResult } from './measure.js';

export interface ProveLocation {
  file: string;
  line: number;
  server: string;
  location: string;
  /** The pass directive (`proxy_pass`, `uwsgi_pass`, `grpc_pass`...). */
  pass: string;
  /** `via`: for a named location, the location whose request reaches it and how. */
  request: { method: 'GET' | 'POST'; scheme: 'http' | 'https'; protocol: 'HTTP/1.1' | 'HTTP/2'; host: string; path: string; via?: string } | null;
  before: Measured | null;
  after: Measured | null;
  /** One WebSocket upgrade's status as written and as fixed (101: it works), for a location that carries them. */
  websocket: { before: number; after: number } | null;
  skipped: string | null;
  /** When it does not reuse connections after the fixes: the findings left in the location, and why they stay. */
  why: string[];
  /** After the fixes, at most `bound` connections; null when not measured. */
  reuses: boolean | null;
  /**
   * It does not reuse, and nginx keeps no connection of its protocol (uwsgi, SCGI: their modules have no upstream
   * keepalive), so no fix could: why, and the run does not fail for it. Null otherwise.
   */
  noKeepalive: string | null;
  statusesChanged: boolean;
  /** The upgrade worked as written (101) and no longer does after the fixes. */
  websocketBroken: boolean;
}

export interface ProveReport {
  nginx: { binary: string; version: string | null };
  requests: number;
  concurrency: number;
  unsafeFixes: boolean;
  /** Connections after the fixes at most this many: reuse (one worker × the requests in flight). */
  bound: number;
  locations: ProveLocation[];
}

/** nginx runs one worker; with C requests in flight it never needs more than C upstream connections at once. */
const WORKERS = 1;

/** Passes whose nginx module closes the upstream connection after each response (nginx 1.22 to 1.29 alike). */
const NO_KEEPALIVE: Record<string, string> = {
  uwsgi_pass: "nginx's uwsgi module keeps no upstream connection (it has no keepalive for uwsgi): no fix can change that",
  scgi_pass: "nginx's SCGI module keeps no upstream connection (it has no keepalive for SCGI): no fix can change that",
};

/**
 * Passes to a literal address that no rule reports yet (proxy-pass-no-upstream covers proxy_pass only), with what
 * would make nginx reuse their connections: said, rather than "no finding left", when such a location does not reuse.
 */
const UNCOVERED_LITERAL: Record<string, string> = {
  grpc_pass: 'an upstream{} holding it with keepalive would (the gRPC module needs no other setting)',
  fastcgi_pass: 'an upstream{} holding it with keepalive, and fastcgi_keep_conn on, would',
};

function uncoveredLiteral(pass: string, target: string | undefined): string | undefined {
  const remedy = UNCOVERED_LITERAL[pass];
  if (remedy === undefined || target === undefined) return undefined;
  return (
    `no rule covers a ${pass} to a ${target.startsWith('unix:') ? 'socket' : 'literal address'} yet (${target}): nginx ` +
    'gives it an implicit upstream, which keeps ' +
    `no connection; ${remedy}, written by hand`
  );
}

function sameStatuses(a: Measured, b: Measured): boolean {
  const keys = new Set([...Object.keys(a.statuses), ...Object.keys(b.statuses)]);
  return [...keys].every((key) => a.statuses[key] === b.statuses[key]);
}

/** The findings `check --fix` leaves inside the fixed location, each with why no fix was made. */
function remainingIn(remaining: readonly Finding[], file: string, lines: [number, number]): string[] {
  return remaining
    .filter((finding) => finding.file === file && finding.span.start.line + 1 >= lines[0] && finding.span.start.line + 1 <= lines[1])
    .map((finding) => `${finding.ruleId}: ${finding.message}${finding.withheld ? ` (no fix: ${finding.withheld})` : ''}`);
}

/** Why a pass through variables keeps its connections per request: the rules read no value a variable holds. */
function throughVariables(target: string): string {
  return `the target is set through variables (${target} for this request): check finds and fixes nothing in a pass through variables`;
}

export function compareSides(
  before: SideResult,
  after: SideResult,
  options: ProveOptions,
  cwd: string,
  remaining: readonly Finding[],
): Pick<ProveReport, 'bound' | 'locations'> {
  const bound = WORKERS * options.concurrency;
  // Reasons name files as the engine has them (absolute): shown as the file column is, relative to the cwd.
  const relative = (text: string): string => text.split(`${cwd}${path.sep}`).join('');
  const locations = before.locations.map(({ plan, measured, websocket: upgradeBefore }, index): ProveLocation => {
    const other = after.locations[index];
    const matched = other && other.plan.location === plan.location && other.plan.server === plan.server ? other : undefined;
    const planned = plan.skipped ?? (matched ? matched.plan.skipped : 'no matching location after the fixes');
    // A request answered before it reaches the pass (a server-level return, auth...) measures nothing about reuse.
    const unreached = planned === null && measured?.upstreamRequests === 0 && matched?.measured?.upstreamRequests === 0;
    const skipped = unreached ? 'the requests did not reach the upstream, as written or fixed (see the statuses)' : planned;
    const afterMeasured = planned === null ? (matched?.measured ?? null) : null;
    const beforeMeasured = planned === null ? measured : null;
    const reuses = afterMeasured && skipped === null ? afterMeasured.connections <= bound : null;
    const upgradeAfter = matched?.websocket ?? null;
    const websocket = skipped === null && upgradeBefore !== null && upgradeAfter !== null ? { before: upgradeBefore, after: upgradeAfter } : null;
    const found = reuses === false && matched ? remainingIn(remaining, matched.plan.file, matched.plan.lines) : [];
    const uncovered = reuses === false ? uncoveredLiteral(plan.pass, plan.literalTarget) : undefined;
    const variables = reuses === false && plan.variableTarget !== undefined ? [throughVariables(plan.variableTarget)] : [];
    const why = [...found, ...variables, ...(uncovered !== undefined ? [uncovered] : [])];
    return {
      file: displayPath(plan.file, cwd),
      line: plan.line,
      server: plan.server,
      location: plan.location,
      pass: plan.pass,
      request: planned === null ? requestOf(plan, relative) : null,
      before: beforeMeasured,
      after: afterMeasured,
      websocket,
      skipped: skipped === null ? null : relative(skipped),
      why: why.map(relative),
      reuses,
      noKeepalive: reuses === false ? (NO_KEEPALIVE[plan.pass] ?? null) : null,
      statusesChanged: beforeMeasured !== null && afterMeasured !== null && !sameStatuses(beforeMeasured, afterMeasured),
      websocketBroken: websocket !== null && websocket.before === 101 && websocket.after !== 101,
    };
  });
  return { bound, locations };
}

function requestOf(plan: SideResult['locations'][number]['plan'], relative: (text: string) => string): NonNullable<ProveLocation['request']> {
  const scheme = plan.tls ? 'https' : 'http';
  const via = plan.via !== undefined ? { via: relative(plan.via) } : {};
  return { method: plan.grpc ? 'POST' : 'GET', scheme, protocol: plan.protocol, host: plan.server, path: plan.path, ...via };
}

function statuses(measured: Measured): string {
  return Object.entries(measured.statuses).map(([status, count]) => `${count}×${status === '0' ? 'no reply' : status}`).join(' ');
}

export function summaryLine(report: ProveReport): string {
  const measured = report.locations.filter((entry) => entry.skipped === null && entry.before && entry.after);
  if (measured.length === 0) return 'no location measured (see the reasons above)';
  const sum = (side: 'before' | 'after'): number => measured.reduce((total, entry) => total + entry[side]!.connections, 0);
  const requests = measured.reduce((total, entry) => total + entry.before!.requests, 0);
  const plural = measured.length === 1 ? 'location' : 'locations';
  return `upstream connections ${sum('before')} → ${sum('after')} for ${requests} requests across ${measured.length} ${plural}`;
}

export function formatProveTable(report: ProveReport): string {
  const lines: string[] = [];
  for (const entry of report.locations) {
    const sent = entry.request ? `, ${entry.request.protocol}${entry.request.scheme === 'https' ? ' over TLS' : ''}` : '';
    const head = `${entry.file}:${entry.line}  server ${entry.server}  location ${entry.location}  (${entry.pass}${sent})`;
    if (entry.skipped !== null || !entry.before || !entry.after) {
      const seen = entry.before && entry.after ? ` (statuses ${statuses(entry.before)} → ${statuses(entry.after)})` : '';
      lines.push(`${head}\n  skipped: ${entry.skipped ?? 'not measured'}${seen}`);
      continue;
    }
    const already = entry.before.connections <= report.bound;
    const verdict = entry.reuses
      ? already ? 'reuses connections already (as written)' : 'reuses connections after the fixes'
      : entry.noKeepalive ?? `still opens a connection per request after the fixes (over ${report.bound})`;
    const changed = entry.statusesChanged ? '  RESPONSES CHANGED' : '';
    const reached = entry.request?.via !== undefined ? `\n  ${entry.request.method} ${entry.request.path} reaches it through ${entry.request.via}` : '';
    lines.push(
      `${head}${reached}\n  connections ${entry.before.connections} → ${entry.after.connections} for ${entry.before.requests} requests: ${verdict}\n` +
        `  statuses ${statuses(entry.before)} → ${statuses(entry.after)}${changed}`,
    );
    if (entry.websocket) {
      const status = (code: number): string => (code === 0 ? 'no reply' : String(code));
      const broken = entry.websocketBroken ? '  UPGRADE BROKEN BY THE FIXES' : entry.websocket.after === 101 ? ' (works)' : '';
      lines.push(`  websocket upgrade ${status(entry.websocket.before)} → ${status(entry.websocket.after)}${broken}`);
    }
    if (entry.reuses === false && entry.noKeepalive === null) {
      const why = entry.why.length > 0 ? entry.why : ['no finding left in this location: run nginx-keepalive check on the same paths'];
      for (const line of why) lines.push(`  left after the fixes: ${line}`);
    }
  }
  const version = report.nginx.version ? ` ${report.nginx.version}` : '';
  lines.push('', `${summaryLine(report)} (nginx${version}, ${report.concurrency} in flight, reuse: ≤ ${report.bound} after the fixes)`, '');
  return lines.join('\n');
}

export function formatProveJson(report: ProveReport): string {
  return `${JSON.stringify({ ...report, summary: summaryLine(report) }, null, 2)}\n`;
}
