// The rules and their documentation pages for the editor's "Show rule documentation" command: the same pages
// `nginx-keepalive rule <id>` prints, embedded in the bundle (engine/rule-docs.ts), so they show offline.
//
//   nginxKeepalive/rules                     -> RuleSummary[] (registry order)
//   nginxKeepalive/ruleDocumentation { id }  -> { id, markdown }; an unknown id is an InvalidParams error
import { ErrorCodes, ResponseError } from './protocol.js';
import { docsUrl } from '../engine/docs-url.js';
import { ruleDoc } from '../engine/rule-docs.js';
import { findRule, rules } from '../rules/registry.js';

export const RULES_REQUEST = 'nginxKeepalive/rules';
export const RULE_DOCUMENTATION_REQUEST = 'nginxKeepalive/ruleDocumentation';

export interface RuleSummary {
  id: string;
  description: string;
  defaultSeverity: string;
  fixable: boolean;
}

export interface RuleDocumentation {
  id: string;
  markdown: string;
}

export function ruleSummaries(): RuleSummary[] {
  return rules.map(({ meta }) => ({ id: meta.id, description: meta.description, defaultSeverity: meta.defaultSeverity, fixable: meta.fixable }));
}

export function ruleDocumentation(params: unknown): RuleDocumentation {
  const id = (params as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || !findRule(id)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `unknown rule ${JSON.stringify(id)}; ${RULES_REQUEST} lists them`);
  }
  // Every registered rule has a page (test/docs checks it); a build without them still points somewhere useful.
  return { id, markdown: ruleDoc(id) ?? `# ${id}\n\nNo documentation page in this build; see ${docsUrl(id)}\n` };
}
