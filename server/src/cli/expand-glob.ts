// Command-line globs (`'deploy/**/*.conf'`, quoted so the shell leaves them to us) expanded over the file system.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compileGlob, hasGlobMagic } from '../util/glob.js';
import { walkFiles, type WalkOptions, type WalkResult } from '../engine/walk.js';

// Walks only from the glob's literal prefix (`deploy/nginx` for `deploy/nginx/**/*.conf`), and no deeper than the
// pattern can reach when it has no `**`. Matches files only, checked as given whatever their name: the pattern is the
// user's explicit selection, exactly as if the shell had expanded it.
export interface GlobExpansion extends WalkResult {
  /** The absolute directory walked: the pattern's literal prefix. */
  base: string;
}

/** The literal prefix of a command-line glob, as an absolute directory. */
export function globRoot(pattern: string, cwd: string): string {
  const segments = pattern.split('/');
  const literalPrefix = segments.slice(0, segments.findIndex(hasGlobMagic)).join('/');
  return path.resolve(cwd, literalPrefix === '' && pattern.startsWith('/') ? '/' : literalPrefix || '.');
}

/** `allows`: as for walkFiles, which links may be followed (default: those staying under the literal prefix). */
export function expandGlob(pattern: string, cwd: string, options: Pick<WalkOptions, 'allows'> = {}): GlobExpansion {
  const segments = pattern.split('/');
  const firstMagic = segments.findIndex(hasGlobMagic);
  const magicPart = segments.slice(firstMagic);
  const base = globRoot(pattern, cwd);
  if (!existsSync(base)) return { base, files: [], failures: [], escaped: [] };

  const hasGlobstar = magicPart.some((segment) => segment.includes('**'));
  const walked = walkFiles(base, hasGlobstar ? options : { ...options, maxDepth: magicPart.length });
  const matcher = compileGlob(magicPart.join('/'), { globstar: true });
  const files = walked.files.filter((file) => matcher.test(toPosix(path.relative(base, file))));
  return { base, files, failures: walked.failures, escaped: walked.escaped };
}

function toPosix(relativePath: string): string {
  return relativePath.split(path.sep).join('/');
}
