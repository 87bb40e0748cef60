// Command-line globs (`'deploy/**/*.conf'`, quoted so the shell leaves them to us) expanded over the file system.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { globToRegExp, hasGlobMagic } from '../core/glob.js';
import { walkFiles, type WalkResult } from './walk.js';

// Walks only from the glob's literal prefix (`deploy/nginx` for `deploy/nginx/**/*.conf`), and no deeper than the
// pattern can reach when it has no `**`. Matches files only, checked as given whatever their name: the pattern is the
// user's explicit selection, exactly as if the shell had expanded it.
export interface GlobExpansion extends WalkResult {
  /** The absolute directory walked: the pattern's literal prefix. */
  base: string;
}

export function expandGlob(pattern: string, cwd: string): GlobExpansion {
  const segments = pattern.split('/');
  const firstMagic = segments.findIndex(hasGlobMagic);
  const literalPrefix = segments.slice(0, firstMagic).join('/');
  const magicPart = segments.slice(firstMagic);
  const base = path.resolve(cwd, literalPrefix === '' && pattern.startsWith('/') ? '/' : literalPrefix || '.');
  if (!existsSync(base)) return { base, files: [], failures: [] };

  const hasGlobstar = magicPart.some((segment) => segment.includes('**'));
  const walked = walkFiles(base, hasGlobstar ? {} : { maxDepth: magicPart.length });
  const matcher = globToRegExp(magicPart.join('/'), { globstar: true });
  const files = walked.files.filter((file) => matcher.test(toPosix(path.relative(base, file))));
  return { base, files, failures: walked.failures };
}

function toPosix(relativePath: string): string {
  return relativePath.split(path.sep).join('/');
}
