// `connection-map-close`: A map used as the Connection header sends close for ordinary requests ('' close).
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const connectionMapCloseRule: Rule = {
  meta: {
    id: 'connection-map-close',
    description: "A map used as the Connection header sends close for ordinary requests ('' close).",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
