// `nginx-keepalive rules` and `nginx-keepalive rule <id>`, from the built dist/cli.js: the pages must come from
// the bundle itself, since the npm package and the single executable ship no docs/ directory.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeIds, formatRuleList } from '../../server/src/cli/docs-command.js';
import { ruleDoc } from '../../server/src/engine/rule-docs.js';
import { rules } from '../../server/src/rules/registry.js';
import { CLI, runCli, useTempTrees } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tree = useTempTrees();
const page = (id: string) => readFileSync(path.join(repoRoot, 'docs/rules', `${id}.md`), 'utf8');

describe('nginx-keepalive rules', () => {
  it('lists every rule with its default severity, fixability, nginx versions and description', () => {
    const result = runCli(tree({}), ['rules']);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^rule +severity +fixable +nginx +reports$/);
    for (const { meta } of rules) {
      const line = lines.find((candidate) => candidate.startsWith(`${meta.id} `));
      expect(line, meta.id).toBeDefined();
      expect(line!.split(/ {2,}/).slice(0, 3)).toEqual([meta.id, meta.defaultSeverity, meta.fixable ? 'yes' : 'no']);
      expect(line!.endsWith(meta.description)).toBe(true);
    }
  });

  it('aligns the columns', () => {
    const metas = [
      { id: 'a', description: 'first', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
      { id: 'longer-id', description: 'second', defaultSeverity: 'error', nginxVersions: '<1.29.7', fixable: false },
    ] as const;
    expect(formatRuleList(metas).split('\n').slice(0, 3)).toEqual([
      'rule       severity  fixable  nginx    reports',
      'a          warning   yes      all      first',
      'longer-id  error     no       <1.29.7  second',
    ]);
  });
});

describe('nginx-keepalive rule <id>', () => {
  it('prints the documentation page, exactly as in docs/rules', () => {
    const result = runCli(tree({}), ['rule', 'upstream-keepalive']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(page('upstream-keepalive'));
  });

  it('has every rule page embedded in the CLI bundle: a copy run alone, far from docs/, prints them', () => {
    const alone = tree({});
    // dist/cli.js is the loader of dist/cli-main.cjs (scripts/cli-loader.mjs): the two are copied together.
    copyFileSync(CLI, path.join(alone, 'cli.js'));
    copyFileSync(path.join(path.dirname(CLI), 'cli-main.cjs'), path.join(alone, 'cli-main.cjs'));
    // runCli runs dist/cli.js in place; the lone copy is run directly.
    for (const { meta } of rules) {
      const result = spawnSync(process.execPath, [path.join(alone, 'cli.js'), 'rule', meta.id], { cwd: alone, encoding: 'utf8' });
      expect(result.status, meta.id).toBe(0);
      expect(result.stdout, meta.id).toBe(page(meta.id));
    }
  });

  it('answers an unknown id with exit 2 and the close ids', () => {
    const result = runCli(tree({}), ['rule', 'upstream-keepalve']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'nginx-keepalive: unknown rule "upstream-keepalve" (did you mean upstream-keepalive?); "nginx-keepalive rules" lists them all\n',
    );
    const far = runCli(tree({}), ['rule', 'zzz']);
    expect(far.status).toBe(2);
    expect(far.stderr).toMatch(/unknown rule "zzz"; "nginx-keepalive rules" lists them all/);
  });

  it('never reads a path made from what was typed', () => {
    expect(ruleDoc('../../package')).toBeUndefined();
    const result = runCli(tree({}), ['rule', '../README']);
    expect(result.status).toBe(2);
  });
});

describe('closeIds', () => {
  const ids = rules.map((rule) => rule.meta.id);

  it('finds typos, parts and prefixes, closest first, at most three', () => {
    expect(closeIds('upstream-keepalve', ids)).toEqual(['upstream-keepalive']);
    expect(closeIds('keepalive', ids)).toEqual(['keepalive-order', 'upstream-keepalive']);
    expect(closeIds('connection', ids)).toHaveLength(3);
    expect(closeIds('SYNTAX', ids)).toEqual(['syntax']);
    expect(closeIds('x'.repeat(10_000), ids)).toEqual([]);
  });
});
