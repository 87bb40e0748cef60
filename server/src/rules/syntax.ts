// `syntax`: the file does not read as nginx configuration. One finding per error region (see
// model/syntax-problems.ts), so a single mistake never floods the output.
import type { Rule, RuleState } from '../analysis/rule-api.js';

interface SyntaxState extends RuleState {
  message: string;
}

export const syntaxRule: Rule<SyntaxState> = {
  meta: {
    id: 'syntax',
    description: 'The file does not parse as nginx configuration (nginx -t would reject it).',
    defaultSeverity: 'error',
    nginxVersions: '*',
    fixable: false,
  },
  detect({ workspace }) {
    const states: SyntaxState[] = [];
    for (const file of workspace.files) {
      for (const problem of file.syntaxProblems) states.push({ file: file.path, span: problem.span, message: problem.message });
    }
    return states;
  },
  message: (state) => ({ headline: state.message }),
};
