// `fastcgi-keep-conn`: a fastcgi_pass to a keepalive upstream without an effective `fastcgi_keep_conn on`
// (inherited levels count; an explicit `off` counts as missing). The FastCGI server then closes the connection
// after every response, so the upstream's keepalive cache stays empty. Fix: fixes/keep-conn.ts keepConnEdits.
import { keepConnEdits } from '../fixes/keep-conn.js';
import { keepConnState } from '../analysis/proxy-state.js';
import { keepalivePasses, upstreamLabel } from '../analysis/keepalive-passes.js';
import { levelLabel, quoted, writtenAt } from '../analysis/message-parts.js';
import type { Rule } from '../analysis/rule-api.js';

export const fastcgiKeepConnRule: Rule = {
  meta: {
    id: 'fastcgi-keep-conn',
    description: 'fastcgi_pass to a keepalive upstream without fastcgi_keep_conn on.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  check({ workspace, options, report }) {
    for (const pass of keepalivePasses(workspace, 'fastcgi_pass', options)) {
      const state = keepConnState(workspace, pass.scope);
      if (state.kind !== 'missing' && state.kind !== 'explicit-off') continue;
      const off = state.kind === 'explicit-off' ? state.definition.directives.find((d) => d.args[0]?.value.toLowerCase() === 'off') : undefined;
      const cause =
        state.kind === 'explicit-off' && off
          ? `${quoted(off)} is set on ${levelLabel(state.definition.level)} (${writtenAt(off)})`
          : 'no fastcgi_keep_conn applies here and the default is off';
      const edits = keepConnEdits(workspace, pass, options);
      report({
        file: pass.directive.file.path,
        span: pass.directive.span,
        message:
          `fastcgi_pass to ${upstreamLabel(pass)}, which has keepalive, does not keep its connection: ${cause}, so the ` +
          'FastCGI server closes the connection after every response and none is reused (set "fastcgi_keep_conn on;")',
        ...(edits.length > 0 ? { fix: { title: 'Set fastcgi_keep_conn on', edits } } : {}),
      });
    }
  },
};
