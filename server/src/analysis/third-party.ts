// Whether a pass sends its requests to someone else's server: a public host name (fonts.gstatic.com, api.github.com,
// a bucket on s3.amazonaws.com), written in the pass or as a `server` of the upstream{} it names; not an IP address,
// localhost, a unix socket, or a single-label name (a container or service on the operator's own network). Headers
// copied into such a location (X-Forwarded-For, X-Real-IP) tell a stranger who the users are: a fix that does it is
// unsafe.
//
// An upstream{} is only a name: its servers say whose machines it reaches. So the answer survives every rewrite the
// fixes make: proxy-pass-no-upstream turns `proxy_pass https://api.payments.example;` into a pass to a new
// `upstream backend_api_payments_example_443 { server api.payments.example:443; }`, and the pass is still the
// provider's when fixAll analyzes the new text (it once looked like the operator's own, and the unsafe copy applied).
//
//   thirdPartyHost(pass)        the host, when the pass targets a third-party origin (directly or through an upstream)
//   thirdPartyName(host)        the lower-cased host when that host name is a third party's, for any host name
//   serverHost(server)          the host of an upstream `server` directive; undefined for a socket or a template
//   CLIENT_IDENTITY_HEADERS     the headers that carry the client's address or identity, lower-cased
import type { Directive } from '../model/types.js';
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

export function thirdPartyName(host: string): string | undefined {
  const name = host.toLowerCase();
  if (name === '' || isIpAddress(name) || name === 'localhost' || !name.includes('.')) return undefined;
  return PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ? undefined : name;
}

/** `server api.example.com:443 resolve;` -> api.example.com; `[::1]:8080` keeps its brackets. */
export function serverHost(server: Directive): string | undefined {
  const address = server.args[0];
  if (!address || address.templated || address.variables.length > 0 || address.value.startsWith('unix:')) return undefined;
  const text = address.value;
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1) || undefined;
  const colon = text.lastIndexOf(':');
  return colon === -1 ? text : text.slice(0, colon);
}

export function thirdPartyHost(pass: Pass): string | undefined {
  if (pass.resolution.kind === 'upstream') {
    for (const upstream of pass.resolution.upstreams) {
      for (const server of upstream.servers) {
        const host = serverHost(server);
        const name = host === undefined ? undefined : thirdPartyName(host);
        if (name !== undefined) return name;
      }
    }
    return undefined;
  }
  const host = pass.target?.host;
  if (!host || pass.target!.templated || pass.target!.socket !== undefined) return undefined;
  return thirdPartyName(host);
}
