// `proxy-http-version`: a proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0. nginx
// then speaks HTTP/1.0 to the upstream, which closes the connection after every response: the keepalive cache stays
// empty. Before 1.29.7 an absent proxy_http_version means 1.0; from 1.29.7 only an explicit 1.0 is reported.
// grpc_pass (HTTP/2) and the other protocols have no proxy_http_version. Fix: fixes/proxy-reuse.ts http11Edits.
import { httpVersionState, type Found } from '../analysis/proxy-state.js';
import { http11Edits } from '../fixes/proxy-reuse.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, quoted, writtenAt } from '../analysis/message-parts.js';
import type { Rule } from '../analysis/rule-api.js';

const DEFAULT_CAUSE = 'no proxy_http_version applies here and before nginx 1.29.7 the default is 1.0';

function explicitCause(definition: Found): string {
  const written = definition.directives.find((d) => d.args[0]?.value === '1.0') ?? definition.directives.at(-1)!;
  return `${quoted(written)} is set on ${levelLabel(definition.level)} (${writtenAt(written)})`;
}

export const proxyHttpVersionRule: Rule = {
  meta: {
    id: 'proxy-http-version',
    description: 'proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check({ workspace, options, report }) {
    for (const pass of keepalivePasses(workspace, 'proxy_pass', options)) {
      const state = httpVersionState(workspace, pass.scope, options);
      if (state.kind !== 'default-1.0' && state.kind !== 'explicit-1.0') continue;
      const cause = state.kind === 'explicit-1.0' ? explicitCause(state.definition) : DEFAULT_CAUSE;
      const edits = http11Edits(workspace, pass, options);
      report({
        file: pass.directive.file.path,
        span: pass.directive.span,
        message:
          `proxy_pass to ${upstreamLabel(pass)}, which has keepalive, speaks HTTP/1.0: ${cause}, so the upstream ` +
          'closes the connection after every response and none is reused (set "proxy_http_version 1.1;")',
        ...(edits.length > 0 ? { fix: { title: 'Use proxy_http_version 1.1', edits } } : {}),
      });
    }
  },
};
