// Includes the checker could not follow: a missing file, a cycle, more includes than the checker follows, or a path
// outside what it may read. The last is information, not a warning: the config may well be right on its server,
// the checker just was not allowed to look (the fix is a --path-map, not an edit).
import type { Rule } from '../analysis/rule-api.js';

export const includeRule: Rule = {
  meta: {
    id: 'include',
    description:
      'An include points at a missing file, includes itself in a cycle, exceeds the include limits, or leads outside the checked paths.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: false,
  },
  check(context) {
    for (const problem of context.workspace.includeProblems) {
      const severity = problem.kind === 'outside' ? 'info' : undefined;
      context.report({ file: problem.file.path, span: problem.span, message: problem.message, severity });
    }
  },
};
