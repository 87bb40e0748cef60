// The README's rule table, generated from the rules' metadata so the two never disagree. scripts/generate.mjs
// writes it between the markers below (`npm run generate`); test/generated.test.ts fails when the README is stale.
import type { Rule } from '../analysis/rule-api.js';

export const RULES_START = '<!-- rules:start -->';
export const RULES_END = '<!-- rules:end -->';

/** Relative to the README at the repository root. */
export function docsPath(ruleId: string): string {
  return `docs/rules/${ruleId}.md`;
}

/** Text safe inside a markdown table cell: a `|` would end the cell, a newline the row. */
function cell(text: string): string {
  // Each run of white space holding a newline becomes one space; `/\s*\n\s*/g` would be quadratic in blanks.
  return text.replace(/\|/g, '\\|').replace(/\s+/g, (blanks) => (blanks.includes('\n') ? ' ' : blanks));
}

function versions(range: string): string {
  return range.trim() === '*' ? 'all' : `\`${range}\``;
}

/** One markdown table of `rules`, in the order given (the registry's), ending with a newline. */
export function renderRuleTable(rules: readonly Rule[]): string {
  const rows = rules.map(({ meta }) =>
    [
      `[\`${meta.id}\`](${docsPath(meta.id)})`,
      cell(meta.description),
      meta.defaultSeverity,
      versions(meta.nginxVersions),
      meta.fixable ? 'yes' : 'no',
    ].join(' | '),
  );
  const lines = ['| rule | reports | default severity | nginx versions | fixable |', '|---|---|---|---|---|', ...rows.map((row) => `| ${row} |`)];
  return `${lines.join('\n')}\n`;
}

function markerOffsets(readme: string): { start: number; end: number } {
  const start = readme.indexOf(RULES_START);
  const end = readme.indexOf(RULES_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the README needs a ${RULES_START} line followed by a ${RULES_END} line`);
  }
  if (readme.indexOf(RULES_START, start + 1) !== -1 || readme.indexOf(RULES_END, end + 1) !== -1) {
    throw new Error(`the README has more than one ${RULES_START} / ${RULES_END} pair`);
  }
  return { start: start + RULES_START.length, end };
}

/** The text between the markers, without the line break that ends the start marker's line. */
export function extractRulesSection(readme: string): string {
  const { start, end } = markerOffsets(readme);
  return readme.slice(start, end).replace(/^\r?\n/, '');
}

/** The README with the text between the markers replaced by `table` (which ends with a newline). */
export function replaceRulesSection(readme: string, table: string): string {
  const { start, end } = markerOffsets(readme);
  return `${readme.slice(0, start)}\n${table}${readme.slice(end)}`;
}
