// One copy of the short strings a model repeats thousands of times: directive names and indents. Each slice of a
// file's text is a new string (or, from 13 characters, a view that keeps the whole text alive), so without this a
// corpus model held ~8,000 copies of "    " and ~2,000 of "location". The table is bounded, so unusual names
// (a templated or misspelt one) cannot grow it without limit: past the bound a string is simply not interned.
const MAX_INTERNED = 4096;
/** Longer strings are rarely repeated (an argument, not a name); not worth a table entry. */
const MAX_INTERNED_LENGTH = 64;
const table = new Map<string, string>();

export function interned(text: string): string {
  if (text.length > MAX_INTERNED_LENGTH) return text;
  const known = table.get(text);
  if (known !== undefined) return known;
  if (table.size < MAX_INTERNED) {
    // A copy that owns its characters: the slice it came from may be a view holding a whole file's text.
    const own = flatCopy(text);
    table.set(own, own);
    return own;
  }
  return text;
}

function flatCopy(text: string): string {
  // Joining characters builds a new sequential string; slicing or concatenating could keep a view of the source.
  return Array.from(text).join('');
}

/** V8 copies a slice shorter than this; a longer one is a view that keeps the whole string it was sliced from. */
const SHORTEST_VIEW = 13;

/**
 * `text` as a string that owns its characters. The language server's incremental model reads an edited block's
 * strings so (plain-token-reader.ts): they are views of that version's whole text, and the statements around the
 * block keep the views of the versions they were read from, so a document edited in many blocks kept one whole text
 * alive per block (incremental-model.ts), now only the first.
 */
export const owned = (text: string): string => (text.length < SHORTEST_VIEW ? text : flatCopy(text));
