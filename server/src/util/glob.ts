// Glob patterns as nginx's include (fnmatch-like `*`, `?`, `[...]`, never crossing `/`) and, for command-line
// paths only, `**` spanning directories.
//
// Matched by simulating the pattern as an automaton, not by translating it to a RegExp: include globs come from the
// configs being checked, and `include *a*a*a*a*a*a*a*a*a*a*b;` as a backtracking RegExp takes time growing as the
// name's length to the power of the number of stars. The simulation is O(name length × pattern length), whatever the
// pattern.

export interface GlobOptions {
  /** Allow `**` to match across directory separators (command-line globs; nginx includes do not). */
  globstar: boolean;
}

export interface GlobMatcher {
  /** True when the whole of `text` matches the pattern. */
  test(text: string): boolean;
}

export function hasGlobMagic(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/**
 * What every name a glob (or one segment of it) matches starts with: its text before the first `*`, `?` or `[`, and
 * before any lone surrogate, which compareBytes orders as U+FFFD: past one, the names starting with the text would
 * not be one run of a list in that order.
 */
export function literalPrefix(pattern: string): string {
  const end = pattern.search(/[*?[]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  return end === -1 ? pattern : pattern.slice(0, end);
}

/**
 * One element of a pattern. `star` is `*` (any run without `/`), `globstar` a `**` (any run), `globstarSlash` a `**`
 * followed by `/` (nothing, or any run ending in `/`: `a/**\/b` also matches `a/b`).
 */
type Element =
  | { kind: 'char'; char: string }
  | { kind: 'one'; matches: (char: string) => boolean }
  | { kind: 'star' | 'globstar' | 'globstarSlash' };

const NOT_SLASH = (char: string) => char !== '/';
const NOTHING = () => false;

function parse(pattern: string, options: GlobOptions): Element[] {
  const elements: Element[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (options.globstar && pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        elements.push({ kind: slashAfter ? 'globstarSlash' : 'globstar' });
        i += slashAfter ? 2 : 1;
      } else {
        elements.push({ kind: 'star' });
      }
    } else if (ch === '?') {
      elements.push({ kind: 'one', matches: NOT_SLASH });
    } else if (ch === '[' && pattern.indexOf(']', i + 2) !== -1) {
      const close = pattern.indexOf(']', i + 2);
      elements.push({ kind: 'one', matches: characterClass(pattern.slice(i + 1, close)) });
      i = close;
    } else {
      elements.push({ kind: 'char', char: ch });
    }
  }
  return elements;
}

/**
 * `[abc]`, `[a-z]`, `[!x]` as RegExp reads them (a leading `!` negates, a backslash is literal). Built as a RegExp of
 * one character class tested on one character, which cannot backtrack. A class that RegExp rejects (`[z-a]`, in a
 * config or on a command line) matches nothing, as in glob(3).
 */
function characterClass(body: string): (char: string) => boolean {
  // A `]` can only come first (the class ends at the first `]` after that): escaped, it is a member, as in glob(3),
  // and the body can never close the class early.
  const source = body.replace(/^!/, '^').replace(/\\/g, '\\\\').replace(/^(\^?)\]/, '$1\\]');
  let regExp: RegExp;
  try {
    regExp = new RegExp(`^[${source}]$`);
  } catch {
    return NOTHING;
  }
  return (char) => regExp.test(char);
}

/** Whether an element may match nothing (then the state after it is active too). */
const mayBeEmpty = (element: Element) => element.kind === 'star' || element.kind === 'globstar' || element.kind === 'globstarSlash';

export function compileGlob(pattern: string, options: GlobOptions): GlobMatcher {
  const elements = parse(pattern, options);
  const final = elements.length;
  // States are element indices, "the elements before this one have matched", plus for each `**/` at index i a state
  // inside + i: "inside it, past its first character" (from there only a `/` leads on: it cannot match nothing any
  // more). The active states are a duplicate-free list; `seen` marks the ones in the list being built.
  const inside = final + 1;
  const seen = new Uint8Array(inside + final);
  const add = (states: number[], state: number) => {
    if (seen[state] === 0) {
      seen[state] = 1;
      states.push(state);
    }
  };
  const addWithClosure = (states: number[], state: number) => {
    for (let s = state; s <= final && seen[s] === 0; s++) {
      add(states, s);
      if (s === final || !mayBeEmpty(elements[s]!)) break;
    }
  };
  return {
    test(text) {
      let active: number[] = [];
      addWithClosure(active, 0);
      // Code units, as RegExp without the u flag (and the pattern, parsed the same way).
      for (let i = 0; i < text.length; i++) {
        const char = text[i]!;
        active.forEach((state) => (seen[state] = 0));
        const next: number[] = [];
        for (const state of active) {
          if (state >= inside) {
            add(next, state);
            if (char === '/') addWithClosure(next, state - inside + 1);
            continue;
          }
          const element = elements[state];
          if (element === undefined) continue;
          switch (element.kind) {
            case 'char':
              if (element.char === char) addWithClosure(next, state + 1);
              break;
            case 'one':
              if (element.matches(char)) addWithClosure(next, state + 1);
              break;
            case 'star':
              if (char !== '/') addWithClosure(next, state);
              break;
            case 'globstar':
              addWithClosure(next, state);
              break;
            case 'globstarSlash':
              add(next, inside + state);
              if (char === '/') addWithClosure(next, state + 1);
              break;
          }
        }
        active = next;
        if (active.length === 0) return false;
      }
      active.forEach((state) => (seen[state] = 0));
      return active.includes(final);
    },
  };
}
