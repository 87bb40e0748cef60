// `unused-suppression`: a `# nginx-keepalive-ignore` comment that silenced nothing, names an unknown rule, or names
// none. Only metadata lives here: whether a suppression was used is known only after every other rule has reported,
// so engine/suppressions.ts, which analyze() runs after the rules, emits these findings (with the configured severity
// of this rule, and nothing when it is off). The entry exists so the id can be configured, documented and listed in
// the settings schema like any other rule.
import type { Rule } from '../analysis/rule-api.js';

export const unusedSuppressionRule: Rule = {
  meta: {
    id: 'unused-suppression',
    description:
      'A "# nginx-keepalive-ignore" comment suppresses nothing, names an unknown rule, or names no rule (the fix removes an unused one).',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: true,
  },
  detect() {
    // Intentionally empty: see the comment at the top of this file.
    return [];
  },
  message: () => ({ headline: '' }),
};
