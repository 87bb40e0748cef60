// Small Markdown helpers for hovers: config text shown as inline code, whatever backticks it holds.
import { docsUrl } from '../engine/docs-url.js';
import type { Directive } from '../model/types.js';

/** Inline code that survives backticks in `text` (a fence longer than any run inside). */
export function code(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  // A loop, not Math.max(...runs): a 300 KB argument of backticks has more runs than a call takes arguments.
  let longestRun = 0;
  for (const match of oneLine.matchAll(/`+/g)) longestRun = Math.max(longestRun, match[0].length);
  const fence = '`'.repeat(longestRun + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** A directive's source on one line, as inline code: `keepalive 16;`. */
export function directiveCode(directive: Directive): string {
  return code(`${[directive.name, ...directive.args.map((argument) => argument.raw)].join(' ')}${directive.blockSpan ? '' : ';'}`);
}

/** Escapes the characters Markdown would read as formatting in plain prose. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|]/g, (ch) => `\\${ch}`);
}

/** A rule id linking its documentation page. */
export function ruleLink(ruleId: string): string {
  return `[${ruleId}](${docsUrl(ruleId)})`;
}
