// `proxy-set-header-inheritance`: A block's own proxy_set_header silently drops the headers set at enclosing levels.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const proxySetHeaderInheritanceRule: Rule = {
  meta: {
    id: 'proxy-set-header-inheritance',
    description: "A block's own proxy_set_header silently drops the headers set at enclosing levels.",
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
