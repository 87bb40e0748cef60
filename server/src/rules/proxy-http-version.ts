// `proxy-http-version`: proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const proxyHttpVersionRule: Rule = {
  meta: {
    id: 'proxy-http-version',
    description: 'proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
