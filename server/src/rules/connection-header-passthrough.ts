// `connection-header-passthrough`: proxy_set_header Connection $http_connection forwards the client's Connection header (close) to the upstream.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const connectionHeaderPassthroughRule: Rule = {
  meta: {
    id: 'connection-header-passthrough',
    description: "proxy_set_header Connection $http_connection forwards the client's Connection header (close) to the upstream.",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
