import fc from 'fast-check';
import { readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryListings } from '../../server/src/util/directory-listings.js';
import { compareBytes, createFsHost, globOnDisk } from '../../server/src/util/fs-host.js';
import { compileGlob } from '../../server/src/util/glob.js';
import type { GlobConfinement } from '../../server/src/util/types.js';
import { tempTree } from '../model/support.js';

describe('createFsHost', () => {
  it('reads files and returns undefined for what it cannot read', () => {
    const root = tempTree({ 'a.conf': 'gzip on;\n' });
    const host = createFsHost();
    expect(host.readFile(path.join(root, 'a.conf'))).toBe('gzip on;\n');
    expect(host.readFile(path.join(root, 'missing.conf'))).toBeUndefined();
    expect(host.readFile(root)).toBeUndefined();
    expect(host.exists(path.join(root, 'a.conf'))).toBe(true);
    expect(host.exists(path.join(root, 'missing.conf'))).toBe(false);
  });

  it('expands glob segments in directories and files, in byte order', () => {
    const root = tempTree({
      'sites/one/x.conf': '',
      'sites/two/x.conf': '',
      'sites/two/y.txt': '',
      'sites/file-not-dir': '',
      'sites/.hidden/x.conf': '',
      'sites/three/x1.conf': '',
    });
    const host = createFsHost();
    expect(host.glob(path.join(root, 'sites/*/x.conf')).map((p) => path.relative(root, p))).toEqual([
      'sites/one/x.conf',
      'sites/two/x.conf',
    ]);
    expect(host.glob(path.join(root, 'sites/t[hw]*/x?.conf')).map((p) => path.relative(root, p))).toEqual([
      'sites/three/x1.conf',
    ]);
    expect(host.glob(path.join(root, 'nothing/*.conf'))).toEqual([]);
    expect(host.glob(path.join(root, 'sites/.h*/x.conf'))).toHaveLength(1);
  });
});

/** A confinement that records what the glob asked and was told. */
function recordingConfinement(allowed: (directory: string) => boolean, bounds: Partial<GlobConfinement> = {}) {
  const asked: string[] = [];
  const refused: string[] = [];
  const limits: string[] = [];
  const confinement: GlobConfinement = {
    ...bounds,
    allows: (directory) => (asked.push(directory), allowed(directory)),
    outside: (link) => refused.push(link),
    limited: (bound) => limits.push(bound),
  };
  return { confinement, asked, refused, limits };
}

describe('globOnDisk: confinement and bounds (issue 10, items 4 and 13)', () => {
  it('asks before entering each directory, and never matches inside one it refuses', () => {
    const elsewhere = tempTree({ 'none-x.conf': '', 'shadow': '' });
    const root = tempTree({ 'conf.d/a/none-a.conf': '', 'conf.d/b/other.conf': '' });
    symlinkSync(elsewhere, path.join(root, 'conf.d/evil'));
    const evil = path.join(root, 'conf.d/evil');
    const { confinement, asked, refused } = recordingConfinement((directory) => directory !== evil);
    const matches = globOnDisk(path.join(root, 'conf.d/*/none-*.conf'), confinement);
    expect(matches).toEqual([path.join(root, 'conf.d/a/none-a.conf')]);
    expect(refused).toEqual([evil]);
    // The refused link was asked about, and nothing below it ever was.
    expect(asked).toContain(evil);
    expect(asked.filter((p) => p.startsWith(`${evil}/`))).toEqual([]);
  });

  it('reports a link to a file outside matched by the last segment, without testing its target', () => {
    const elsewhere = tempTree({ 'shadow': 'secret\n' });
    const root = tempTree({ 'x/.keep': '' });
    symlinkSync(path.join(elsewhere, 'shadow'), path.join(root, 'x/shadow'));
    const link = path.join(root, 'x/shadow');
    const { confinement, refused } = recordingConfinement((p) => p !== link);
    expect(globOnDisk(path.join(root, '*/shadow'), confinement)).toEqual([]);
    expect(refused).toEqual([link]);
  });

  it('enters each real directory once per segment: ten links to "." under seven wildcards give one match', () => {
    const root = tempTree({ 'd/x.conf': '' });
    for (let i = 0; i < 10; i++) symlinkSync('.', path.join(root, `d/l${i}`));
    const { confinement, asked, limits } = recordingConfinement(() => true);
    // 10^6 paths lead to x.conf; without deduplication this runs for minutes and runs out of memory.
    const matches = globOnDisk(path.join(root, '*/*/*/*/*/*/*/x.conf'), confinement);
    expect(matches).toEqual([path.join(root, 'd/l0/l0/l0/l0/l0/l0/x.conf')]);
    expect(limits).toEqual([]);
    expect(asked.length).toBeLessThan(100);
  });

  it('stops at the directory bound and says so', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`d${String(i).padStart(2, '0')}/x.conf`] = '';
    const root = tempTree(files);
    const { confinement, limits } = recordingConfinement(() => true, { maxDirectories: 6 });
    const matches = globOnDisk(path.join(root, '*/x.conf'), confinement);
    // The base, then five of the twenty directories, in byte order.
    expect(matches.map((p) => path.relative(root, p))).toEqual(['d00', 'd01', 'd02', 'd03', 'd04'].map((d) => `${d}/x.conf`));
    expect(limits).toEqual(['directories']);
  });

  it('stops at the match bound while expanding, keeping the first matches in byte order', () => {
    const root = tempTree({ 'c.conf': '', 'a.conf': '', 'e.conf': '', 'b.conf': '', 'd.conf': '' });
    const { confinement, limits } = recordingConfinement(() => true, { maxMatches: 3 });
    expect(globOnDisk(path.join(root, '*.conf'), confinement).map((p) => path.basename(p))).toEqual(['a.conf', 'b.conf', 'c.conf']);
    expect(limits).toEqual(['matches']);
  });
});

describe('include globs over one large directory (issue 26, item 6)', () => {
  it('one host lists a directory once, whatever the number of globs over it', () => {
    const count = 300;
    const root = tempTree(Object.fromEntries(Array.from({ length: count }, (_, i) => [`conf.d/site${i}.conf`, ''])));
    const listings = new DirectoryListings();
    const host = createFsHost({ listings });
    for (let i = 0; i < count; i++) {
      expect(host.glob(path.join(root, `conf.d/site${i}.con[f]`)).map((p) => path.basename(p))).toEqual([`site${i}.conf`]);
    }
    const all = host.glob(path.join(root, 'conf.d/*.conf')).map((p) => path.basename(p));
    expect(all).toEqual(Array.from({ length: count }, (_, i) => `site${i}.conf`).sort(compareBytes));
    expect(listings.reads).toBe(1);
    // A glob with its own listings (the default of globOnDisk) reads the directory again.
    globOnDisk(path.join(root, 'conf.d/site1.con[f]'));
    expect(listings.reads).toBe(1);
    listings.clear();
    host.glob(path.join(root, 'conf.d/site1.con[f]'));
    expect(listings.reads).toBe(2);
  });

  it('matches, looking only at the names with its literal prefix, exactly what testing every name matches', () => {
    const names = ['a', 'ab', 'abc', 'a[b', 'a]', 'b', '.a', '.ab', 'é', 'éa', '😀', '😀a', 'a.conf', 'ab.conf', 'z'];
    const root = tempTree(Object.fromEntries(names.map((name) => [`d/${name}`, ''])));
    const listed = readdirSync(path.join(root, 'd'));
    const part = fc.constantFrom('a', 'b', 'é', '😀', '.', '*', '?', '[ab]', '[!a]', '[', ']', 'conf', '.conf');
    const segment = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
    const host = createFsHost();
    fc.assert(
      fc.property(segment, (pattern) => {
        fc.pre(pattern !== '.' && pattern !== '..'); // the directory itself and its parent, not names in it
        const matcher = compileGlob(pattern, { globstar: false });
        const everyName = listed
          .filter((name) => (pattern.startsWith('.') || !name.startsWith('.')) && matcher.test(name))
          .sort(compareBytes);
        expect(host.glob(path.join(root, 'd', pattern)).map((p) => path.basename(p))).toEqual(everyName);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('compareBytes', () => {
  it('orders strings as their UTF-8 bytes compare, lone surrogates included', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'é', '\uffff', '\ud800', '\udc00', '😀', '\ue000', '.', '/'), fc.string({ unit: 'binary', maxLength: 1 })) });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareBytes(a, b))).toBe(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
      }),
      { numRuns: 2000 },
    );
  });
});
