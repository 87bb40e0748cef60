// `proxy-http-version`: a proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0. nginx
// then speaks HTTP/1.0 to the upstream, which closes the connection after every response: the keepalive cache stays
// empty. Before 1.29.7 an absent proxy_http_version means 1.0; from 1.29.7 only an explicit 1.0 is reported.
// grpc_pass (HTTP/2) and the other protocols have no proxy_http_version. Fix: fixes/proxy-reuse.ts http11Edits.
// When the only thing that could give the pass HTTP/1.1 is an include the checker could not read (a missing file, one
// outside the checked paths), the pass is not silently trusted: information, no fix, saying how to let it be read.
import { httpVersionState, versionBehindInclude, type Found, type HttpVersionState, type VersionBehindInclude } from '../analysis/proxy-state.js';
import type { Pass } from '../analysis/passes.js';
import { http11Edits, http11Plan } from '../fixes/proxy-reuse.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, quoted, writtenAt } from '../analysis/message-parts.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';
import path from 'node:path';

const DEFAULT_CAUSE = 'no proxy_http_version applies here and before nginx 1.29.7 the default is 1.0';

function explicitCause(definition: Found): string {
  const written = definition.directives.find((d) => d.args[0]?.value === '1.0') ?? definition.directives.at(-1)!;
  return `${quoted(written)} is set on ${levelLabel(definition.level)} (${writtenAt(written)})`;
}

/** The HTTP version is whatever an unread include says: information. */
export type HiddenVersion = { kind: 'behind-include' } & VersionBehindInclude;

export interface ProxyHttpVersionState extends RuleState {
  pass: Pass;
  version: Extract<HttpVersionState, { kind: 'default-1.0' | 'explicit-1.0' }> | HiddenVersion;
}

function howToRead(hidden: HiddenVersion): string {
  const target = hidden.include.args[0]!.value;
  if (hidden.problem.kind === 'outside') {
    return (
      `It is outside the checked paths: map its directory onto a copy with --path-map ${path.posix.dirname(target)}=<dir> ` +
      '(nginxKeepalive.pathMap in the editor), or check the directory holding it too.'
    );
  }
  return 'It was not found or could not be read: check the directory holding it together with this file, or map its path with --path-map.';
}

const OTHERWISE: Record<HiddenVersion['otherwise'], string> = {
  'default-1.0': 'nginx speaks HTTP/1.0 (the default before 1.29.7)',
  'explicit-1.0': 'the proxy_http_version 1.0 set above it applies',
  unknown: 'nginx may speak HTTP/1.0 (an include above it that cannot be read either decides)',
};

function hiddenMessage(pass: Pass, hidden: HiddenVersion): { headline: string; detail: string } {
  return {
    headline: 'HTTP version depends on an include that could not be read: let the checker read it',
    detail:
      `${upstreamLabel(pass, true)} has keepalive, and ${quoted(hidden.include)} on ${levelLabel(hidden.level)} ` +
      `(${writtenAt(hidden.include)}) may set this pass's proxy_http_version: nothing between them does. If it sets ` +
      `"proxy_http_version 1.1;" connections are reused; if not, ${OTHERWISE[hidden.otherwise]} and the upstream closes ` +
      `each connection after one response. ${howToRead(hidden)}`,
  };
}

export const proxyHttpVersionRule: Rule<ProxyHttpVersionState> = {
  meta: {
    id: 'proxy-http-version',
    description: 'proxy_pass to a keepalive upstream while the effective proxy_http_version is 1.0.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const states: ProxyHttpVersionState[] = [];
    for (const pass of keepalivePasses(workspace, 'proxy_pass', options)) {
      const version = httpVersionState(workspace, pass.scope, options);
      const hidden = version.kind === 'unknown' ? versionBehindInclude(workspace, pass.scope, options) : undefined;
      if (hidden) {
        const state = { kind: 'behind-include', ...hidden } as const;
        states.push({ file: pass.directive.file.path, span: pass.directive.span, severity: 'info', noFix: true, pass, version: state });
        continue;
      }
      if (version.kind !== 'default-1.0' && version.kind !== 'explicit-1.0') continue;
      // Decided here, without writing the line: a location placement.ts refuses, or none at all, gets no fix.
      const noFix = http11Plan(workspace, pass, options) ? undefined : (true as const);
      states.push({ file: pass.directive.file.path, span: pass.directive.span, noFix, pass, version });
    }
    return states;
  },
  message({ pass, version }) {
    if (version.kind === 'behind-include') return hiddenMessage(pass, version);
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
