// Includes the checker could not follow: a missing file, a cycle, more includes than the checker follows, or a path
// outside what it may read. The last is information, not a warning: the config may well be right on its server,
// the checker just was not allowed to look (the fix is a --path-map, not an edit). Also information: a templated
// or run-time include path in a server that proxies to upstreams (analysis/unchecked-includes.ts), whose locations
// may proxy there too and would need what the checked ones get; said whether or not a fix has run, so no pass is
// left behind in silence.
import type { Rule, RuleState } from '../analysis/rule-api.js';
import { uncheckedPassIncludes } from '../analysis/unchecked-includes.js';
import { listed } from '../util/shortened.js';

interface IncludeState extends RuleState {
  message: string;
  detail: string | undefined;
}

export const includeRule: Rule<IncludeState> = {
  meta: {
    id: 'include',
    description:
      'An include points at a missing file, includes itself in a cycle, exceeds the include limits, or leads outside the checked paths.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: false,
  },
  // Its states read other blocks only through upstream names (engine/linked-blocks.ts).
  readsAcrossBlocks: 'upstream-links',
  detect({ workspace }) {
    const states: IncludeState[] = workspace.includeProblems.map((problem) => ({
      file: problem.file.path,
      span: problem.span,
      severity: problem.kind === 'outside' ? ('info' as const) : undefined,
      message: problem.message,
      detail: problem.detail,
    }));
    for (const { include, upstreams } of uncheckedPassIncludes(workspace)) {
      states.push({
        file: include.file.path,
        span: include.args[0]!.span,
        severity: 'info',
        message: 'passes in this templated include are not checked: they need HTTP/1.1 and Connection ""',
        detail:
          'Its path is only known when the template is rendered (or at run time). Locations in the files it includes ' +
          `may proxy to ${listed(upstreams.map((name) => `upstream "${name}"`), 3)} as well; once an upstream keeps ` +
          'connections, each such proxy_pass needs "proxy_http_version 1.1;" and "proxy_set_header Connection "";" ' +
          '(or the upgrade map) before nginx 1.29.7, and a fastcgi_pass needs "fastcgi_keep_conn on;".',
      });
    }
    return states;
  },
  message: (state) => ({ headline: state.message, detail: state.detail }),
};
