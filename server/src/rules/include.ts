// Includes the checker could not follow: a missing file, a cycle, more includes than the checker follows, or a path
// outside what it may read. The last is information, not a warning: the config may well be right on its server,
// the checker just was not allowed to look (the fix is a --path-map, not an edit).
import type { Rule, RuleState } from '../analysis/rule-api.js';

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
  detect({ workspace }) {
    return workspace.includeProblems.map((problem) => ({
      file: problem.file.path,
      span: problem.span,
      severity: problem.kind === 'outside' ? ('info' as const) : undefined,
      message: problem.message,
      detail: problem.detail,
    }));
  },
  message: (state) => ({ headline: state.message, detail: state.detail }),
};
