// `upstream-keepalive`: An http upstream {} has no keepalive, so every proxied request opens a new connection.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const upstreamKeepaliveRule: Rule = {
  meta: {
    id: 'upstream-keepalive',
    description: 'An http upstream {} has no keepalive, so every proxied request opens a new connection.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
