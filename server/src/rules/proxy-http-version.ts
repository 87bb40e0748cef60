// `proxy-http-version`: a proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0. nginx
// then speaks HTTP/1.0 to the upstream, which closes the connection after every response: the keepalive cache stays
// empty. Before 1.29.7 an absent proxy_http_version means 1.0; from 1.29.7 only an explicit 1.0 is reported.
// grpc_pass (HTTP/2) and the other protocols have no proxy_http_version. Fix: fixes/proxy-reuse.ts http11Edits.
import { httpVersionState, type Found, type HttpVersionState } from '../analysis/proxy-state.js';
import type { Pass } from '../analysis/passes.js';
import { http11Edits, http11Plan } from '../fixes/proxy-reuse.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, quoted, writtenAt } from '../analysis/message-parts.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';

const DEFAULT_CAUSE = 'no proxy_http_version applies here and before nginx 1.29.7 the default is 1.0';

function explicitCause(definition: Found): string {
  const written = definition.directives.find((d) => d.args[0]?.value === '1.0') ?? definition.directives.at(-1)!;
  return `${quoted(written)} is set on ${levelLabel(definition.level)} (${writtenAt(written)})`;
}

export interface ProxyHttpVersionState extends RuleState {
  pass: Pass;
  version: Extract<HttpVersionState, { kind: 'default-1.0' | 'explicit-1.0' }>;
}

export const proxyHttpVersionRule: Rule<ProxyHttpVersionState> = {
  meta: {
    id: 'proxy-http-version',
    description: 'proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  detect({ workspace, options }) {
    const states: ProxyHttpVersionState[] = [];
    for (const pass of keepalivePasses(workspace, 'proxy_pass', options)) {
      const version = httpVersionState(workspace, pass.scope, options);
      if (version.kind !== 'default-1.0' && version.kind !== 'explicit-1.0') continue;
      // Decided here, without writing the line: a location placement.ts refuses, or none at all, gets no fix.
      const noFix = http11Plan(workspace, pass, options) ? undefined : (true as const);
      states.push({ file: pass.directive.file.path, span: pass.directive.span, noFix, pass, version });
    }
    return states;
  },
  message({ pass, version }) {
    const cause = version.kind === 'explicit-1.0' ? explicitCause(version.definition) : DEFAULT_CAUSE;
    return {
      headline: 'proxy_pass speaks HTTP/1.0 to a keepalive upstream: set "proxy_http_version 1.1;"',
      detail:
        `${upstreamLabel(pass, true)} has keepalive, but ${cause}. Over HTTP/1.0 the upstream closes the connection after every ` +
        'response, so none is ever reused.',
    };
  },
  fix({ pass }, { workspace, options }) {
    const edits = http11Edits(workspace, pass, options);
    return edits.length > 0 ? { title: 'Use proxy_http_version 1.1', edits } : undefined;
  },
};
