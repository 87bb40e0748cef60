// `connection-header-missing`: proxy_pass to a keepalive upstream sends Connection: close (header not cleared, or set to close).
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const connectionHeaderMissingRule: Rule = {
  meta: {
    id: 'connection-header-missing',
    description: 'proxy_pass to a keepalive upstream sends Connection: close (header not cleared, or set to close).',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
