// Glob patterns as nginx's include (fnmatch-like `*`, `?`, `[...]`, never crossing `/`) and, for command-line
// paths only, `**` spanning directories.

export interface GlobOptions {
  /** Allow `**` to match across directory separators (command-line globs; nginx includes do not). */
  globstar: boolean;
}

export function hasGlobMagic(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

export function globToRegExp(pattern: string, options: GlobOptions): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      const isGlobstar = options.globstar && pattern[i + 1] === '*';
      if (isGlobstar) {
        // `a/**/b` must also match `a/b`, so the globstar swallows its trailing slash.
        const slashAfter = pattern[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (ch === '?') {
      source += '[^/]';
    } else if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        const body = pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        // A class that RegExp rejects (`[z-a]`, in a config or on a command line) matches nothing, as in glob(3).
        source += isValidClass(body) ? `[${body}]` : '(?!)';
        i = close;
      }
    } else {
      source += ch.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function isValidClass(body: string): boolean {
  try {
    new RegExp(`[${body}]`);
    return true;
  } catch {
    return false;
  }
}
