// A FileHost over files held in memory: an `nginx -T` dump's. Its paths are the server's (`/etc/nginx/conf.d/a.conf`),
// not places on this machine, so nothing here touches the disk: an include resolves among the dump's files only,
// as nginx resolved it when it made the dump (a file nginx did not read is not in the dump, and is not found).
import path from 'node:path';
import type { ReadScope } from './read-scope.js';
import { compareBytes, lowerBound } from '../util/byte-order.js';
import { compileGlob, literalPrefix, type GlobMatcher } from '../util/glob.js';
import type { FileHost, GlobConfinement, SourceDocument } from '../util/types.js';

/**
 * The read scope of a virtual host: everything it holds may be read. The read scope exists to keep includes from
 * wandering over the local disk; a virtual host has no disk, and holds only what the user handed over.
 */
export const VIRTUAL_READ_SCOPE: ReadScope = { allows: () => true, key: '\0virtual' };

/** Whether `file` matches the include glob `pattern` as glob(3) would: `*` never crosses `/` nor matches a leading dot. */
function globMatches(matcher: GlobMatcher, patternSegments: readonly string[], file: string): boolean {
  const segments = file.split('/');
  if (segments.length !== patternSegments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const wanted = patternSegments[i]!;
    if (segments[i]!.startsWith('.') && !wanted.startsWith('.')) return false;
  }
  return matcher.test(file);
}

export function createVirtualHost(files: readonly SourceDocument[]): FileHost {
  const texts = new Map<string, string>();
  for (const file of files) texts.set(path.posix.resolve(file.path), file.text);
  // Byte order, as nginx sorts glob results: a glob's matches come out in the order nginx read them.
  const sorted = [...texts.keys()].sort(compareBytes);
  return {
    virtual: true,
    readFile: (file) => texts.get(path.posix.resolve(file)),
    exists: (file) => texts.has(path.posix.resolve(file)),
    glob(pattern: string, confinement?: GlobConfinement): string[] {
      const absolute = path.posix.resolve(pattern);
      const segments = absolute.split('/');
      const matcher = compileGlob(absolute, { globstar: false });
      const matches: string[] = [];
      const max = confinement?.maxMatches ?? Number.POSITIVE_INFINITY;
      // Every match starts with the pattern's text before its first wildcard, and in byte order the paths that do
      // are one run: only that run is tested, so N globs over N files cost no N × N tests (issue 26).
      const prefix = literalPrefix(absolute);
      for (let i = lowerBound(sorted, prefix, (file) => file); i < sorted.length; i++) {
        const file = sorted[i]!;
        if (!file.startsWith(prefix)) break;
        if (!globMatches(matcher, segments, file)) continue;
        if (matches.length >= max) {
          confinement?.limited?.('matches');
          break;
        }
        matches.push(file);
      }
      return matches;
    },
  };
}
