// Whether a pass sends its requests to someone else's server: a literal public host name (fonts.gstatic.com,
// api.github.com, a bucket on s3.amazonaws.com), not an upstream{} of the operator's, an IP address, localhost, a
// unix socket, or a single-label name (a container or service on the operator's own network). Headers copied into
// such a location (X-Forwarded-For, X-Real-IP) tell a stranger who the users are: a fix that does it is unsafe.
//
//   thirdPartyHost(pass)        the host, when the pass targets a third-party origin
//   CLIENT_IDENTITY_HEADERS     the headers that carry the client's address or identity, lower-cased
import type { Pass } from './passes.js';

export const CLIENT_IDENTITY_HEADERS: ReadonlySet<string> = new Set([
  'x-forwarded-for',
  'x-real-ip',
  'forwarded',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'x-cluster-client-ip',
]);

/** Internal names by convention (RFC 6762 .local, .internal, .lan, .home.arpa, Docker's and Kubernetes' own). */
const PRIVATE_SUFFIXES = ['.local', '.internal', '.lan', '.localdomain', '.home.arpa', '.svc', '.cluster.local', '.docker'];

function isIpAddress(host: string): boolean {
  if (host.startsWith('[')) return true;
  const parts = host.split('.');
  return parts.length === 4 && parts.every((part) => part !== '' && part.length <= 3 && [...part].every((c) => c >= '0' && c <= '9'));
}

export function thirdPartyHost(pass: Pass): string | undefined {
  if (pass.resolution.kind === 'upstream' || !pass.target) return undefined;
  const host = pass.target.host?.toLowerCase();
  if (!host || pass.target.templated || pass.target.socket !== undefined || isIpAddress(host)) return undefined;
  if (host === 'localhost' || !host.includes('.')) return undefined;
  return PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix)) ? undefined : host;
}
