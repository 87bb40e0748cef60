// Documentation that must follow the rule registry: the README's rule table (written by `npm run generate`, whose
// freshness test/generated.test.ts checks), one page per rule under docs/rules/, and rule ids that are kebab-case and
// name the file the rule lives in.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractRulesSection, renderRuleTable, replaceRulesSection, RULES_END, RULES_START } from '../server/src/engine/docs-table.js';
import { rules } from '../server/src/rules/registry.js';
import type { Rule } from '../server/src/analysis/rule-api.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rulesDir = path.join(repoRoot, 'server', 'src', 'rules');
const docsDir = path.join(repoRoot, 'docs', 'rules');
const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function isRule(value: unknown): value is Rule {
  const meta = (value as Partial<Rule> | undefined)?.meta;
  return typeof meta === 'object' && meta !== null && typeof meta.id === 'string' && typeof (value as Rule).detect === 'function';
}

/** Every rule object exported by a module in server/src/rules/, with the file it comes from. */
async function exportedRules(): Promise<{ file: string; rule: Rule }[]> {
  const files = readdirSync(rulesDir).filter((f) => f.endsWith('.ts')).sort();
  const found: { file: string; rule: Rule }[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(rulesDir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (isRule(value)) found.push({ file, rule: value });
  }
  return found;
}

describe('README rule table', () => {
  it('renders one linked row per rule, in registry order, and escapes table syntax', () => {
    const rule: Rule = {
      meta: { id: 'a-rule', description: 'x | y\nz', defaultSeverity: 'info', nginxVersions: '<1.29.7', fixable: false },
      detect: () => [],
      message: () => ({ headline: '' }),
    };
    expect(renderRuleTable([rule]).split('\n')).toEqual([
      '| rule | reports | default severity | nginx versions | fixable |',
      '|---|---|---|---|---|',
      '| [`a-rule`](docs/rules/a-rule.md) | x \\| y z | info | `<1.29.7` | no |',
      '',
    ]);
    const table = renderRuleTable(rules);
    expect(table.split('\n').length).toBe(rules.length + 3);
  });

  it('replaces only the text between the markers, and reads it back', () => {
    const readme = `# x\r\n${RULES_START}\r\nold\r\n${RULES_END}\r\nafter\r\n`;
    const replaced = replaceRulesSection(readme, '| t |\n');
    expect(replaced).toBe(`# x\r\n${RULES_START}\n| t |\n${RULES_END}\r\nafter\r\n`);
    expect(extractRulesSection(replaced)).toBe('| t |\n');
    expect(() => extractRulesSection('no markers')).toThrow(/needs/);
    expect(() => extractRulesSection(`${RULES_START}${RULES_END}${RULES_START}${RULES_END}`)).toThrow(/more than one/);
  });
});

describe('rule pages and ids', () => {
  it('every registered rule has docs/rules/<id>.md', () => {
    const pages = new Set(readdirSync(docsDir));
    expect(rules.map((r) => r.meta.id).filter((id) => !pages.has(`${id}.md`))).toEqual([]);
  });

  it('every docs/rules/*.md belongs to a registered rule', () => {
    const ids = new Set(rules.map((r) => r.meta.id));
    const pages = readdirSync(docsDir).filter((f) => f.endsWith('.md'));
    expect(pages.filter((page) => !ids.has(page.slice(0, -'.md'.length)))).toEqual([]);
  });

  it('rule ids are kebab-case and unique', () => {
    const ids = rules.map((r) => r.meta.id);
    expect(ids.filter((id) => !KEBAB_CASE.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('every rule lives in server/src/rules/<id>.ts, and every rule there is registered', async () => {
    const exported = await exportedRules();
    const registered = new Set(rules);
    const wrongFile = exported.filter(({ file, rule }) => file !== `${rule.meta.id}.ts`).map(({ file, rule }) => `${rule.meta.id} in ${file}`);
    expect(wrongFile).toEqual([]);
    expect(exported.filter(({ rule }) => !registered.has(rule)).map(({ file }) => `${file} is not registered`)).toEqual([]);
    const homes = new Set(exported.map(({ rule }) => rule));
    expect(rules.filter((rule) => !homes.has(rule)).map((rule) => rule.meta.id)).toEqual([]);
  });
});
