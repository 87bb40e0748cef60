// The host of an `nginx -T` dump's files: its include globs match among the dump's paths as glob(3) would, and (issue
// 26, item 6) a glob tests only the paths sharing its literal start, so N globs over N files cost no N × N tests.
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVirtualHost } from '../../server/src/model/virtual-host.js';
import { compareBytes } from '../../server/src/util/fs-host.js';
import { compileGlob } from '../../server/src/util/glob.js';

/** What glob(3) matches among `paths`, testing every one: no segment of a match starts with a dot the pattern's lacks. */
function everyPathMatching(paths: readonly string[], pattern: string): string[] {
  const matcher = compileGlob(pattern, { globstar: false });
  const wanted = pattern.split('/');
  return paths
    .filter((file) => {
      const segments = file.split('/');
      if (segments.length !== wanted.length) return false;
      if (segments.some((segment, i) => segment.startsWith('.') && !wanted[i]!.startsWith('.'))) return false;
      return matcher.test(file);
    })
    .sort(compareBytes);
}

describe('createVirtualHost: include globs', () => {
  it('matches exactly what testing every path matches', () => {
    const part = fc.constantFrom('a', 'b', 'é', '😀', '\ud800', '.', '*', '?', '[ab]', '[!a]', '[', ']', '.conf');
    const segment = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
    const file = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(fc.uniqueArray(file, { maxLength: 30 }), file, (files, pattern) => {
        // Paths that resolve to another (`/a/.`) are not what this is about.
        fc.pre(files.every((file) => path.posix.resolve(file) === file) && path.posix.resolve(pattern) === pattern);
        const host = createVirtualHost(files.map((file) => ({ path: file, text: '' })));
        expect(host.glob(pattern)).toEqual(everyPathMatching(files, pattern));
      }),
      { numRuns: 2000 },
    );
  });

  it('a lone surrogate in the pattern, ordered as U+FFFD, does not hide matches behind a real U+FFFD', () => {
    const host = createVirtualHost(['/a\ud800a', '/a\ufffdb', '/a\ud800c'].map((file) => ({ path: file, text: '' })));
    expect(host.glob('/a\ud800*')).toEqual(['/a\ud800a', '/a\ud800c']);
  });

  // No count reaches inside the host, so this one is a generous bound: 20,000 globs over 20,000 paths tested every
  // path for every glob (400 million tests, minutes); by their literal start each glob tests one, well inside 20 s.
  it('20,000 globs over 20,000 paths each test only the paths sharing their literal start', { timeout: 20_000 }, () => {
    const count = 20_000;
    const files = Array.from({ length: count }, (_, i) => ({ path: `/etc/nginx/conf.d/site${i}.conf`, text: '' }));
    const host = createVirtualHost(files);
    let matched = 0;
    for (let i = 0; i < count; i++) matched += host.glob(`/etc/nginx/conf.d/site${i}.con[f]`).length;
    expect(matched).toBe(count);
  });
});
