// Third-party modules Debian does not package but users build in, met in the public corpus (its unknown-directive
// findings): their C sources at a release tag, read from a bare git mirror (the search tool's `fetch`, which clones
// github:<owner>/<name> into /work/.mirror/<owner>+<name>/repo). Their entries carry no Debian package: nothing says
// a build has them or lacks them, so they are accepted wherever their module allows them and named in hover.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Repository, tag and its commit, the directories with the module's sources, home page, licence. */
export const OUT_OF_TREE = [
  {
    package: 'nginx-module-vts', version: '0.2.7', repository: 'vozlt/nginx-module-vts', tag: 'v0.2.7',
    commit: '38b8612527ecb003ea15cefe934f302cf1a7c27e', dirs: ['src'], home: 'https://github.com/vozlt/nginx-module-vts#directives', licence: 'BSD-2-Clause',
  },
  {
    package: 'ngx_pagespeed', version: '1.13.35.2', repository: 'apache/incubator-pagespeed-ngx', tag: 'v1.13.35.2-stable',
    commit: '11ba8ea542164e4ad1fc1a394652db2dddb086a7', dirs: ['src'], home: 'https://www.modpagespeed.com/doc/configuration', licence: 'Apache-2.0',
  },
];

/** The mirror of `repository` under `mirrors` (owner/name -> owner+name/repo). */
export function mirrorOf(mirrors, repository) {
  return path.join(mirrors, repository.replace('/', '+'), 'repo');
}

/** The module's C and C++ sources at its commit: { path: text }; undefined when the mirror lacks the commit. */
export function readOutOfTree(mirrors, party) {
  const gitDir = mirrorOf(mirrors, party.repository);
  if (!existsSync(gitDir)) return undefined;
  try {
    execFileSync('git', ['-C', gitDir, 'cat-file', '-e', `${party.commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const listing = execFileSync('git', ['-C', gitDir, 'ls-tree', '-r', '--name-only', party.commit, '--', ...party.dirs], { encoding: 'utf8' });
  const files = {};
  for (const file of listing.split('\n').filter((f) => /\.(c|h|cc)$/.test(f))) {
    files[file] = execFileSync('git', ['-C', gitDir, 'show', `${party.commit}:${file}`], { encoding: 'latin1', maxBuffer: 64 << 20 });
  }
  return files;
}
