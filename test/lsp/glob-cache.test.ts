// The language server expands an include glob once per state of the disk (issue 10, item 4): analyses after each
// keystroke reuse the expansion, with the links and bounds it reported, until a file is created or deleted.
import { describe, expect, it } from 'vitest';
import type { FileHost, GlobConfinement } from '../../server/src/util/types.js';
import path from 'node:path';
import { GlobCache } from '../../server/src/lsp/glob-cache.js';
import { DirectoryListings } from '../../server/src/util/directory-listings.js';
import { createFsHost } from '../../server/src/util/fs-host.js';
import { tempTree } from '../model/support.js';

/** A disk whose glob reports one refused link and a cut, counting its expansions. */
function countingHost(): FileHost & { expansions: number } {
  const host = {
    expansions: 0,
    readFile: () => undefined,
    exists: () => false,
    glob(pattern: string, confinement?: GlobConfinement) {
      host.expansions++;
      confinement?.outside?.('/ws/conf.d/evil');
      confinement?.limited?.('directories');
      return [`${pattern.replace('*', 'a')}`];
    },
  };
  return host;
}

function confinement(cacheKey: string | undefined) {
  const told: string[] = [];
  const value: GlobConfinement = {
    allows: () => true,
    outside: (link) => told.push(`outside ${link}`),
    limited: (bound) => told.push(`limited ${bound}`),
    maxMatches: 10,
    cacheKey,
  };
  return { value, told };
}

describe('GlobCache', () => {
  it('reuses an expansion for the same scope and pattern, replaying what it reported', () => {
    const disk = countingHost();
    const cache = new GlobCache(disk);
    const first = confinement('scope-a');
    const again = confinement('scope-a');
    expect(cache.host.glob('/ws/conf.d/*.conf', first.value)).toEqual(['/ws/conf.d/a.conf']);
    expect(cache.host.glob('/ws/conf.d/*.conf', again.value)).toEqual(['/ws/conf.d/a.conf']);
    expect(disk.expansions).toBe(1);
    expect(again.told).toEqual(first.told);
    expect(again.told).toEqual(['outside /ws/conf.d/evil', 'limited directories']);
  });

  it('expands again for another scope, without a key, after clear(), and once an expansion is too old', () => {
    const disk = countingHost();
    let now = 0;
    const cache = new GlobCache(disk, 1000, () => now);
    cache.host.glob('/ws/*.conf', confinement('a').value);
    cache.host.glob('/ws/*.conf', confinement('b').value);
    expect(disk.expansions).toBe(2);
    cache.host.glob('/ws/*.conf', confinement(undefined).value);
    cache.host.glob('/ws/*.conf', confinement(undefined).value);
    expect(disk.expansions).toBe(4);
    cache.clear();
    cache.host.glob('/ws/*.conf', confinement('a').value);
    expect(disk.expansions).toBe(5);
    now = 999;
    cache.host.glob('/ws/*.conf', confinement('a').value);
    expect(disk.expansions).toBe(5);
    now = 1001;
    cache.host.glob('/ws/*.conf', confinement('a').value);
    expect(disk.expansions).toBe(6);
  });

  it('lists a directory once for many patterns over it, and again after clear() or once the listing is too old', () => {
    const root = tempTree(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`conf.d/s${i}.conf`, ''])));
    let now = 0;
    const listings = new DirectoryListings(1000, () => now);
    const cache = new GlobCache(createFsHost({ listings }), 1000, () => now, listings);
    for (let i = 0; i < 50; i++) expect(cache.host.glob(path.join(root, `conf.d/s${i}.con[f]`), confinement('a').value)).toHaveLength(1);
    expect(listings.reads).toBe(1);
    cache.clear();
    cache.host.glob(path.join(root, 'conf.d/s1.con[f]'), confinement('a').value);
    expect(listings.reads).toBe(2);
    now = 1001;
    cache.host.glob(path.join(root, 'conf.d/s2.con[f]'), confinement('a').value);
    expect(listings.reads).toBe(3);
  });
});
