// The top-level context of a snippet checked on its own, as the user states it outside the file: --context on the
// command line, `"contexts": {"<glob>": "<context>"}` in `.nginx-keepalive.json`. A file's own
// `# nginx-keepalive: context=` comment still wins (model/context.ts): it travels with the file.
//
// Precedence, per document: its own comment > --context > the first matching "contexts" glob (in the file's order)
// > inference from its directives. A given context counts as stated, so fixes are offered as for a commented file.
//
// Globs are matched against the path relative to the settings file's directory, with `/` separators: `*` and `?`
// stay within a path segment, `**` spans directories (util/glob.ts, an automaton, not a RegExp). A glob without `/`
// matches the file name in any directory, as in .gitignore (`"*.location.conf": "location"`).
import path from 'node:path';
import { compileGlob, type GlobMatcher } from '../util/glob.js';
import type { ContextName } from '../model/types.js';

/** The contexts a snippet's top level can be given: those nginx files are included into. */
export const GIVEN_CONTEXT_NAMES = ['main', 'http', 'server', 'location', 'stream', 'upstream'] as const;
export type GivenContextName = (typeof GIVEN_CONTEXT_NAMES)[number];

export function parseGivenContext(value: unknown): GivenContextName | undefined {
  return GIVEN_CONTEXT_NAMES.find((name) => name === value);
}

export interface ContextGlob {
  /** As written in the settings file. */
  pattern: string;
  context: GivenContextName;
}

interface CompiledGlob {
  context: GivenContextName;
  matcher: GlobMatcher;
  /** No `/` in the pattern: matched against the file name alone. */
  nameOnly: boolean;
}

function compile(globs: readonly ContextGlob[]): CompiledGlob[] {
  return globs.map(({ pattern, context }) => {
    const relative = pattern.startsWith('./') ? pattern.slice(2) : pattern;
    return { context, matcher: compileGlob(relative, { globstar: true }), nameOnly: !relative.includes('/') };
  });
}

/**
 * The context for each document (absolute paths): `flag` for every one when given, else the first glob matching it
 * (relative to `baseDirectory`, the settings file's directory); documents with neither are left out.
 */
export function givenContexts(
  documents: readonly string[],
  flag: GivenContextName | undefined,
  globs: readonly ContextGlob[],
  baseDirectory: string | undefined,
): Record<string, ContextName> {
  const contexts: Record<string, ContextName> = {};
  const compiled = flag === undefined && baseDirectory !== undefined ? compile(globs) : [];
  // Neither a flag nor a glob (the usual run): nothing to resolve the documents' paths for.
  if (flag === undefined && compiled.length === 0) return contexts;
  for (const document of documents) {
    const absolute = path.resolve(document);
    if (flag !== undefined) {
      contexts[absolute] = flag;
      continue;
    }
    if (compiled.length === 0) continue;
    const relative = path.relative(baseDirectory!, absolute);
    // A document outside the settings file's directory is not what its globs describe.
    if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
    const slashed = relative.split(path.sep).join('/');
    const name = path.basename(absolute);
    const match = compiled.find((glob) => glob.matcher.test(glob.nameOnly ? name : slashed));
    if (match) contexts[absolute] = match.context;
  }
  return contexts;
}
