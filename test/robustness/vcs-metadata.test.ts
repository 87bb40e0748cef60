// Version-control metadata is never read through an include: `.git/config` holds the CI job's credentials
// (actions/checkout writes its token there), and `include .git/config;` in a pull request would otherwise print it in
// a syntax finding's code frame. The directory walk already skips these directories.
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadScope } from '../../server/src/model/read-scope.js';
import { reported, runCli, useTempTrees } from './support.js';

const TOKEN = 'ghs_TOKEN4a7c';
const tree = useTempTrees();

function repository(nginxConf: string): string {
  const root = tree({
    'nginx.conf': nginxConf,
    '.git/config': `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n`,
    '.hg/hgrc': `[auth]\nx.password = ${TOKEN}\n`,
  });
  symlinkSync('.git', path.join(root, 'meta'));
  return root;
}

describe('includes into version-control metadata', () => {
  it('are not followed, as written, by glob or through a link, and print nothing of the file', () => {
    const root = repository('include .git/config;\ninclude .g*/conf*;\ninclude meta/config;\ninclude .hg/hgrc;\n');
    for (const format of ['stylish', 'json', 'sarif', 'github', 'gitlab', 'rdjson']) {
      const result = runCli(root, ['check', '--format', format, 'nginx.conf']);
      expect(result.stdout + result.stderr).not.toContain(TOKEN);
      expect(result.stdout + result.stderr).not.toContain('extraheader');
    }
    const findings = reported(root, runCli(root, ['check', '--format', 'json', 'nginx.conf']).stdout);
    expect(findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ['include', 1],
      ['include', 2],
      ['include', 3],
      ['include', 4],
    ]);
  });

  it('stay readable when the user checks the metadata directory itself', () => {
    const root = repository('');
    const scope = createReadScope([path.join(root, '.git')]);
    expect(scope.allows(path.join(root, '.git/config'))).toBe(true);
    const repoScope = createReadScope([root]);
    expect(repoScope.allows(path.join(root, '.git/config'))).toBe(false);
    expect(repoScope.allows(path.join(root, 'meta/config'))).toBe(false);
    expect(repoScope.allows(path.join(root, 'nginx.conf'))).toBe(true);
  });
});
