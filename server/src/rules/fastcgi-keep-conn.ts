// `fastcgi-keep-conn`: a fastcgi_pass to a keepalive upstream without an effective `fastcgi_keep_conn on`
// (inherited levels count; an explicit `off` counts as missing). The FastCGI server then closes the connection
// after every response, so the upstream's keepalive cache stays empty. Fix: fixes/keep-conn.ts keepConnEdits.
import { keepConnEdits, keepConnPlan } from '../fixes/keep-conn.js';
import { keepConnState, type KeepConnState } from '../analysis/proxy-state.js';
import type { Pass } from '../analysis/passes.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, quoted, writtenAt } from '../analysis/message-parts.js';
import type { Rule, RuleState } from '../analysis/rule-api.js';

export interface FastcgiKeepConnState extends RuleState {
  pass: Pass;
  keepConn: Extract<KeepConnState, { kind: 'missing' | 'explicit-off' }>;
}

function cause(state: FastcgiKeepConnState['keepConn']): string {
  const off = state.kind === 'explicit-off' ? state.definition.directives.find((d) => d.args[0]?.value.toLowerCase() === 'off') : undefined;
  return state.kind === 'explicit-off' && off
    ? `${quoted(off)} is set on ${levelLabel(state.definition.level)} (${writtenAt(off)})`
    : 'no fastcgi_keep_conn applies here and the default is off';
}

export const fastcgiKeepConnRule: Rule<FastcgiKeepConnState> = {
  meta: {
    id: 'fastcgi-keep-conn',
    description: 'fastcgi_pass to a keepalive upstream without fastcgi_keep_conn on.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace, options }) {
    const states: FastcgiKeepConnState[] = [];
    for (const pass of keepalivePasses(workspace, 'fastcgi_pass', options)) {
      const keepConn = keepConnState(workspace, pass.scope);
      if (keepConn.kind !== 'missing' && keepConn.kind !== 'explicit-off') continue;
      const noFix = keepConnPlan(workspace, pass) ? undefined : (true as const);
      states.push({ file: pass.directive.file.path, span: pass.directive.span, noFix, pass, keepConn });
    }
    return states;
  },
  message({ pass, keepConn }) {
    return {
      headline: 'fastcgi_pass closes each connection to a keepalive upstream: set "fastcgi_keep_conn on;"',
      detail:
        `${upstreamLabel(pass, true)} has keepalive, but ${cause(keepConn)}. Without it nginx asks the FastCGI server to close the ` +
        'connection after each response (its default, in every nginx version), so none is reused.',
    };
  },
  fix({ pass }, { workspace, options }) {
    const edits = keepConnEdits(workspace, pass, options);
    return edits.length > 0 ? { title: 'Set fastcgi_keep_conn on', edits } : undefined;
  },
};
