// The shortcuts util/paths.ts takes around node:path for paths that are already absolute and normal must give
// node:path's own answers for every path, normal or not.
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNormalAbsolute, joinedPath, relativeIfInside, resolvedPath } from '../../server/src/util/paths.js';

/** Paths made of the pieces that matter to normalization: separators, `.`, `..`, dot names, ordinary names. */
const piece = fc.constantFrom('/', '//', '.', '..', '.git', '.platform', 'a', 'b', 'etc', 'nginx.conf', '..x', 'x.');
const anyPath = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
const absolutePath = anyPath.map((p) => `/${p}`);

/** What relativeIfInside computed before its shortcut. */
function slowRelativeIfInside(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  if (relative === '') return '.';
  return relative === '..' || relative.startsWith('../') || path.isAbsolute(relative) ? absolute : relative;
}

describe('resolvedPath', () => {
  it('is path.resolve for any path', () => {
    fc.assert(fc.property(fc.oneof(anyPath, absolutePath), (p) => resolvedPath(p) === path.resolve(p)), { numRuns: 5000 });
  });

  it('skips path.resolve only for paths it would leave unchanged', () => {
    fc.assert(fc.property(absolutePath, (p) => !isNormalAbsolute(p) || path.resolve(p) === p), { numRuns: 5000 });
    expect(isNormalAbsolute('/etc/nginx/nginx.conf')).toBe(true);
    for (const p of ['/', '/etc/', '/etc//nginx', '/etc/./nginx', '/etc/../x', '/etc/.git/config', 'etc/nginx']) {
      expect(isNormalAbsolute(p), p).toBe(false);
    }
  });
});

describe('relativeIfInside', () => {
  it('gives what path.relative gives, for any path and working directory', () => {
    fc.assert(
      fc.property(absolutePath, absolutePath, (file, cwd) => relativeIfInside(file, cwd) === slowRelativeIfInside(file, cwd)),
      { numRuns: 5000 },
    );
    expect(relativeIfInside('/srv/conf/a.conf', '/srv')).toBe('conf/a.conf');
    expect(relativeIfInside('/srv', '/srv')).toBe('.');
    expect(relativeIfInside('/srvx/a.conf', '/srv')).toBe('/srvx/a.conf');
    expect(relativeIfInside('/etc/a.conf', '/srv')).toBe('/etc/a.conf');
  });
});

describe('joinedPath', () => {
  it('is path.join for any base and relative path', () => {
    fc.assert(fc.property(fc.oneof(anyPath, absolutePath), anyPath, (base, relative) => joinedPath(base, relative) === path.join(base, relative)), {
      numRuns: 5000,
    });
    expect(joinedPath('/etc/nginx', 'snippets/x.conf')).toBe('/etc/nginx/snippets/x.conf');
    expect(joinedPath('/etc/nginx', '../x.conf')).toBe('/etc/x.conf');
  });
});
