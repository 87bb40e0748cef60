// A directory walk resolves each directory once and gives its files' real paths from it (issue 30: one realpath per
// file was a tenth of discovery); they must be exactly what resolving each file gives, and links are left to that.
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverFiles } from '../../server/src/cli/discover.js';
import { uniqueByRealPath } from '../../server/src/engine/checked-files.js';
import { walkFiles } from '../../server/src/engine/walk.js';
import { useTempTrees } from '../cli/helpers.js';

const tree = useTempTrees();
const SITE = 'server {\n  listen 80;\n}\n';

/** Debian's layout, reached through a linked directory too: every file under several names. */
function debianTree(): string {
  const root = tree({ 'etc/nginx/nginx.conf': 'events {}\n', 'etc/nginx/sites-available/a': SITE, 'etc/nginx/conf.d/b.conf': SITE });
  mkdirSync(path.join(root, 'etc/nginx/sites-enabled'));
  symlinkSync('../sites-available/a', path.join(root, 'etc/nginx/sites-enabled/a'));
  symlinkSync('etc/nginx', path.join(root, 'nginx'));
  return root;
}

describe('a walk asked for real paths', () => {
  it('gives each regular file the real path resolving it gives, and none for a link', () => {
    const root = debianTree();
    const walked = walkFiles(path.join(root, 'nginx'), { realPaths: true });
    const listed = [...walked.realPaths!.keys()].sort();
    expect(listed.map((file) => path.relative(root, file))).toEqual(['nginx/conf.d/b.conf', 'nginx/nginx.conf', 'nginx/sites-available/a']);
    for (const file of listed) expect(walked.realPaths!.get(file)).toBe(realpathSync.native(file));
    expect(walked.files).toContain(path.join(root, 'nginx/sites-enabled/a'));
  });

  it('leaves discovery with the files and real paths resolving every file gives', () => {
    const root = debianTree();
    const found = discoverFiles(['nginx', 'etc'], root);
    const expected = uniqueByRealPath(
      ['etc', 'nginx'].flatMap((directory) => walkFiles(path.join(root, directory)).files),
    );
    expect(found.files).toEqual(expected.files);
    expect([...found.realPaths!].sort()).toEqual([...expected.realPaths].sort());
    expect(found.files.map((file) => path.relative(root, file))).toEqual([
      'etc/nginx/conf.d/b.conf',
      'etc/nginx/nginx.conf',
      'etc/nginx/sites-available/a',
    ]);
  });
});
