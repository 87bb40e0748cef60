// The protocols of `prove`'s sandbox: which stub a pass reaches (the kind of upstream its scheme and directive speak),
// the literal target that replaces it, what the local nginx lacks to run it, and what becomes of the TLS settings
// (a listener that speaks TLS keeps doing so, with the run's generated certificate in place of every file named).
import type { Pass } from '../analysis/passes.js';
import type { Directive } from '../model/types.js';

/** One counting stub per kind of upstream connection nginx opens. */
export type StubKind = 'http' | 'https' | 'fastcgi' | 'uwsgi' | 'suwsgi' | 'scgi' | 'grpc' | 'grpcs';

export type StubPorts = Record<StubKind, number>;

/** What the local nginx was built with (`nginx -V`); a pass it cannot run is skipped, its module's directives left out. */
export interface NginxModules {
  ssl: boolean;
  http2: boolean;
  uwsgi: boolean;
  scgi: boolean;
  grpc: boolean;
}

export const ALL_MODULES: NginxModules = { ssl: true, http2: true, uwsgi: true, scgi: true, grpc: true };

/** The stub a pass reaches, or why prove has none for it (`scheme`: what its variables give, for a pass through them). */
export function stubKind(pass: Pass, scheme = pass.target?.scheme): StubKind | { skipped: string } {
  switch (pass.name) {
    case 'proxy_pass':
      return scheme === 'http' || scheme === 'https' ? scheme : { skipped: `${scheme ?? 'no'} scheme: only http:// and https:// proxy_pass targets are measured` };
    case 'fastcgi_pass':
      return 'fastcgi';
    case 'uwsgi_pass':
      return scheme === 'suwsgi' ? 'suwsgi' : 'uwsgi';
    case 'scgi_pass':
      return 'scgi';
    case 'grpc_pass':
      return scheme === 'grpcs' ? 'grpcs' : 'grpc';
    default:
      return { skipped: `${pass.name}: not measured (prove has no ${pass.protocol} stub)` };
  }
}

/** Why the local nginx cannot run a pass of this kind, or null. */
export function missingModule(kind: StubKind, modules: NginxModules): string | null {
  const tls = kind === 'https' || kind === 'suwsgi' || kind === 'grpcs';
  if (tls && !modules.ssl) return 'the local nginx has no SSL module (--with-http_ssl_module): it cannot reach a TLS upstream';
  if ((kind === 'uwsgi' || kind === 'suwsgi') && !modules.uwsgi) return 'the local nginx has no uwsgi module (built --without-http_uwsgi_module)';
  if (kind === 'scgi' && !modules.scgi) return 'the local nginx has no SCGI module (built --without-http_scgi_module)';
  if ((kind === 'grpc' || kind === 'grpcs') && !modules.grpc) return 'the local nginx has no gRPC module (it needs --with-http_v2_module)';
  if ((kind === 'grpc' || kind === 'grpcs') && !modules.http2) return 'the local nginx has no HTTP/2 module (--with-http_v2_module): no gRPC client can reach it';
  return null;
}

/** Directives of modules the local nginx lacks: left out of the copy (nginx -t would reject them). */
export function ofMissingModule(name: string, modules: NginxModules): boolean {
  return (!modules.uwsgi && name.startsWith('uwsgi_')) || (!modules.scgi && name.startsWith('scgi_')) ||
    (!modules.grpc && name.startsWith('grpc_')) || (!modules.http2 && name.startsWith('http2_')) ||
    (!modules.ssl && (name.startsWith('ssl_') || name === 'ssl'));
}

/** A literal pass target on the stub: the directive that replaces it (the URI of a proxy_pass kept). */
export function stubPass(pass: Pass, kind: StubKind, port: number): string {
  const address = `127.0.0.1:${port}`;
  switch (kind) {
    case 'http':
    case 'https': {
      const uri = pass.target?.socket === undefined ? (pass.target?.uri ?? '') : '';
      return `proxy_pass ${kind}://${address}${uri};`;
    }
    case 'suwsgi':
      return `uwsgi_pass suwsgi://${address};`;
    case 'grpc':
    case 'grpcs':
      return `grpc_pass ${kind}://${address};`;
    default:
      return `${pass.name} ${address};`;
  }
}

/** TLS settings kept as written: they name no file and reach nothing. */
const KEPT_SSL = new Set([
  'ssl_protocols', 'ssl_ciphers', 'ssl_prefer_server_ciphers', 'ssl_ecdh_curve', 'ssl_session_cache',
  'ssl_session_timeout', 'ssl_session_tickets', 'ssl_buffer_size', 'ssl_early_data', 'ssl_reject_handshake',
  'ssl_verify_client', 'ssl_verify_depth',
]);
/** TLS settings naming a CA file: the generated certificate (the load presents it as its client certificate). */
const CA_FILES = new Set(['ssl_client_certificate', 'ssl_trusted_certificate']);

/**
 * What becomes of a server-side TLS directive: kept, pointed at the generated certificate, or removed (the
 * certificate and key, inserted in each TLS server instead; OCSP stapling, DH parameters, CRLs, ticket keys,
 * passwords: files the sandbox does not have, and stapling would reach an OCSP responder).
 */
export function tlsDirective(name: string): 'keep' | 'ca' | 'remove' {
  if (KEPT_SSL.has(name)) return 'keep';
  if (CA_FILES.has(name)) return 'ca';
  return 'remove';
}

/** `listen`'s parameters that make its port speak TLS or HTTP/2. */
export function listenFlags(args: readonly { value: string }[]): { tls: boolean; http2: boolean } {
  const values = args.slice(1).map((arg) => arg.value);
  return { tls: values.includes('ssl'), http2: values.includes('http2') };
}

/** What a pass reaches: its stub kind, and the upstream{}s it names (directly, or through variables that name one). */
export interface PassReach {
  kind(pass: Pass): StubKind | { skipped: string };
  upstreams(pass: Pass): readonly Directive[];
}

/** The stub each upstream{}'s members become: the kind of the first pass naming it (`conflict` told of the others). */
export function upstreamKinds(
  all: readonly Pass[],
  reach: PassReach,
  conflict: (upstream: Directive, known: StubKind, kind: StubKind) => void,
): Map<Directive, StubKind> {
  const kinds = new Map<Directive, StubKind>();
  for (const pass of all) {
    const kind = reach.kind(pass);
    if (typeof kind !== 'string') continue;
    for (const directive of reach.upstreams(pass)) {
      const known = kinds.get(directive);
      if (known === undefined) kinds.set(directive, kind);
      else if (known !== kind) conflict(directive, known, kind);
    }
  }
  return kinds;
}

/** Why the sandbox cannot reach the stub of a pass: no module in the local nginx, an upstream that is another stub. */
export function unreachable(pass: Pass | undefined, reach: PassReach, kinds: ReadonlyMap<Directive, StubKind>, modules: NginxModules): string | null {
  const kind = pass ? reach.kind(pass) : undefined;
  if (pass === undefined || typeof kind !== 'string') return null;
  const missing = missingModule(kind, modules);
  if (missing !== null) return missing;
  const other = reach.upstreams(pass).map((upstream) => kinds.get(upstream)).find((known) => known !== kind);
  return other === undefined ? null : `its upstream is also used as ${other}, whose stub its members are`;
}
