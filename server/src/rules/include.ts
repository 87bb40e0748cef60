// Includes nginx could not follow: a missing file, a cycle, or more includes than the checker follows.
import type { Rule } from './types.js';

export const includeRule: Rule = {
  meta: {
    id: 'include',
    description: 'An include points at a missing file, includes itself in a cycle, or exceeds the include limits.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: false,
  },
  check(context) {
    for (const problem of context.workspace.includeProblems) {
      context.report({ file: problem.file.path, span: problem.span, message: problem.message });
    }
  },
};
