// `keepalive-order`: keepalive placed before ip_hash/hash/least_conn/random, which silently disables it before nginx 1.29.7.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const keepaliveOrderRule: Rule = {
  meta: {
    id: 'keepalive-order',
    description: 'keepalive placed before ip_hash/hash/least_conn/random, which silently disables it before nginx 1.29.7.',
    defaultSeverity: 'warning',
    nginxVersions: '<1.29.7',
    fixable: true,
  },
  check() {},
};
