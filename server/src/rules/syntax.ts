// `syntax`: the file does not read as nginx configuration. One finding per error region (see
// model/syntax-problems.ts), so a single mistake never floods the output.
import type { Rule } from '../analysis/rule-api.js';

export const syntaxRule: Rule = {
  meta: {
    id: 'syntax',
    description: 'The file does not parse as nginx configuration (nginx -t would reject it).',
    defaultSeverity: 'error',
    nginxVersions: '*',
    fixable: false,
  },
  check(context) {
    for (const file of context.workspace.files) {
      for (const problem of file.syntaxProblems) {
        context.report({ file: file.path, span: problem.span, message: problem.message });
      }
    }
  },
};
