// Makes a fastcgi_pass keep its connection: effective `fastcgi_keep_conn on`. Without it nginx asks the FastCGI
// server to close the connection after each response (FCGI_KEEP_CONN unset), so upstream keepalive caches nothing.
//
//   keepConnEdits(ws, pass, options)   [] when the pass already has it, is not a fastcgi_pass, or the state is unknown
//                                      (or placement.ts does not allow the directive in its location)
//
// Decisions (as for proxy_http_version in proxy-reuse.ts): an explicit `off` on the pass's own location is turned
// `on` where it is written (a second definition there would be rejected as a duplicate); an `off` on an enclosing
// level, or no definition at all, gets `fastcgi_keep_conn on;` in the pass's location, before its first
// fastcgi_pass. The directive is not allowed in `if`, so a pass inside `if` is fixed in the location around it. An
// enclosing `off` is left alone because it also governs other locations, whose backends this fix knows nothing about.
import { insertLineBefore, replaceSpan } from './edits.js';
import type { Pass } from '../analysis/passes.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { Workspace } from '../model/workspace.js';
import { lineFixPlan, passHome } from './pass-home.js';
import { keepConnState } from '../analysis/proxy-state.js';

export const KEEP_CONN_LINE = 'fastcgi_keep_conn on;';

/** How keepConnEdits() would turn it on, decided without writing it (as proxy-reuse.ts http11Plan). */
export function keepConnPlan(workspace: Workspace, pass: Pass): 'rewrite' | 'insert' | undefined {
  if (pass.name !== 'fastcgi_pass') return undefined;
  const state = keepConnState(workspace, pass.scope);
  return lineFixPlan(workspace, pass, 'fastcgi_keep_conn', state, { missing: 'missing', explicit: 'explicit-off' });
}

export function keepConnEdits(workspace: Workspace, pass: Pass, _options: ResolvedOptions): TextEdit[] {
  const plan = keepConnPlan(workspace, pass);
  if (!plan) return [];
  const state = keepConnState(workspace, pass.scope);
  const home = passHome(pass)!;
  if (plan === 'rewrite' && state.kind === 'explicit-off') {
    return state.definition.directives.flatMap((directive) => {
      const flag = directive.args[0];
      if (flag?.value.toLowerCase() !== 'off') return [];
      return [replaceSpan(directive.file, flag.span, flag.raw.replace(/off/i, 'on'))];
    });
  }
  return [insertLineBefore(home.anchor, KEEP_CONN_LINE)];
}
