// `fastcgi-keep-conn`: fastcgi_pass to a keepalive upstream without fastcgi_keep_conn on.
// STUB: metadata only; the check is being written.
import type { Rule } from './types.js';

export const fastcgiKeepConnRule: Rule = {
  meta: {
    id: 'fastcgi-keep-conn',
    description: 'fastcgi_pass to a keepalive upstream without fastcgi_keep_conn on.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check() {},
};
