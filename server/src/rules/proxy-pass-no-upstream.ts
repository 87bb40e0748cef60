// `proxy-pass-no-upstream`: proxy_pass to a literal address: nginx never keeps those connections alive.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const proxyPassNoUpstreamRule: Rule = {
  meta: {
    id: 'proxy-pass-no-upstream',
    description: 'proxy_pass to a literal address: nginx never keeps those connections alive.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
