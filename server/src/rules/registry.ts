// Every rule analyze() runs, in one list. It also drives the README rule table and the settings schema.
import { includeRule } from './include.js';
import { syntaxRule } from './syntax.js';
import type { Rule } from './types.js';

export const rules: readonly Rule[] = [syntaxRule, includeRule];

export function findRule(id: string): Rule | undefined {
  return rules.find((rule) => rule.meta.id === id);
}
