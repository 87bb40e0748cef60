// Which files one check of a set of paths analyzes, for both adapters: `check .` (cli/discover.ts) and the language
// server's analysis of a workspace folder (lsp/analysis-units.ts) take their documents from here, so they analyze the
// same documents under the same names and give the same findings.
//
// The same file reached under two names (named twice, or Debian's sites-enabled/x linking to ../sites-available/x)
// would report every finding twice. It is checked once, under the path that sorts first by code unit, so the choice
// depends neither on argument order nor on the order a disk lists a directory; the other names are its aliases (an
// open link's document shows the findings of the name kept).
import { realpathSync } from 'node:fs';

export interface CheckedFiles {
  /** One path per real file, sorted by code unit (the same on every machine and locale). */
  files: string[];
  /** The real path of each kept file that has one: the analysis identifies documents by it without asking again. */
  realPaths: Map<string, string>;
  /** Each name left out -> the kept name of the same file. */
  aliases: Map<string, string>;
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `realPathOf`: undefined for a path that does not resolve (it is then its own file). */
export function uniqueByRealPath(files: Iterable<string>, realPathOf: (file: string) => string | undefined = nativeRealPath): CheckedFiles {
  const byRealPath = new Map<string, string>();
  const resolved = new Map<string, string>();
  for (const file of files) {
    if (resolved.has(file)) continue;
    const real = realPathOf(file);
    if (real !== undefined) resolved.set(file, real);
    const key = real ?? file;
    const kept = byRealPath.get(key);
    if (kept === undefined || compareCodeUnits(file, kept) < 0) byRealPath.set(key, file);
  }
  const realPaths = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const [file, real] of resolved) {
    const kept = byRealPath.get(real)!;
    if (kept === file) realPaths.set(file, real);
    else aliases.set(file, kept);
  }
  return { files: [...byRealPath.values()].sort(compareCodeUnits), realPaths, aliases };
}

export function nativeRealPath(file: string): string | undefined {
  try {
    // The native call is one realpath(3); the JS one lstat()s every path component of every file.
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}
