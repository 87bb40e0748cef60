// The directive an unknown name most likely meant, for "did you mean": the table's name that the unknown one becomes
// with `-` read as `_` and letters lowered (`proxy-pass`, `Proxy_Pass`), else the one table name at one edit (a
// letter added, dropped, changed, or two neighbours swapped: `proxy_passs`, `proxy_psas`), else the one table name of
// three words or more that differs in one whole word (`proxy_set_version`). Nothing when no name or more than one is
// that close: a guess between two would mislead.
//
// Found through an index of every table name with one character deleted (the "symmetric delete" method): a name one
// edit away shares one of these with the query, so each lookup costs the query's length, not the table's size.
import { allDirectives } from '../model/directive-table.js';

/** Longer names are not looked up (a directive name is far shorter; this bounds a hostile file's cost). */
const MAX_LOOKUP_LENGTH = 64;
/** Names this short are one edit away from too many others to guess. */
const MIN_FUZZY_LENGTH = 4;

let names: ReadonlySet<string> | undefined;
let byDeletion: Map<string, string[]> | undefined;

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

function index(): { names: ReadonlySet<string>; byDeletion: Map<string, string[]> } {
  if (!names || !byDeletion) {
    names = new Set(allDirectives().map((entry) => entry.name));
    byDeletion = new Map();
    for (const name of names) {
      for (const key of [name, ...deletions(name)]) {
        const list = byDeletion.get(key);
        if (!list) byDeletion.set(key, [name]);
        else if (list[list.length - 1] !== name) list.push(name);
      }
    }
  }
  return { names, byDeletion };
}

/** Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = endA - start;
  const restB = endB - start;
  if (restA <= 1 && restB <= 1) return true;
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}

const memo = new Map<string, string | undefined>();
const MEMO_LIMIT = 4096;

/** The table's directive `name` was probably meant to be, or undefined (see the header). */
export function suggestDirective(name: string): string | undefined {
  if (name.length > MAX_LOOKUP_LENGTH) return undefined;
  if (memo.has(name)) return memo.get(name);
  const found = lookUp(name);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(name, found);
  return found;
}

function lookUp(name: string): string | undefined {
  const table = index();
  const normal = name.toLowerCase().replace(/-/g, '_');
  if (normal !== name && table.names.has(normal)) return normal;
  if (normal.length < MIN_FUZZY_LENGTH) return undefined;
  const close = new Set<string>();
  for (const key of [normal, ...deletions(normal)]) {
    for (const candidate of table.byDeletion.get(key) ?? []) if (oneEditApart(normal, candidate)) close.add(candidate);
  }
  if (close.size > 0) return close.size === 1 ? [...close][0] : undefined;
  return oneWordApart(normal);
}

/** Names of three words or more (`proxy_http_version`), by each word left out: `proxy_*_version`. */
let byWordLeftOut: Map<string, string[]> | undefined;

function wordPatterns(name: string): string[] {
  const words = name.split('_');
  if (words.length < 3 || words.some((word) => word === '')) return [];
  return words.map((_, i) => words.map((word, j) => (i === j ? '*' : word)).join('_'));
}

/**
 * The one table name that differs from `name` in one whole word, the others all the same and in place, a word
 * before the last first (`proxy_set_version` -> proxy_http_version, not proxy_set_header), the last one else
 * (`fastcgi_keep_connection` -> fastcgi_keep_conn); nothing when none or several do (`proxy_foo_timeout` is as near
 * proxy_read_timeout as proxy_send_timeout).
 */
function oneWordApart(name: string): string | undefined {
  if (!byWordLeftOut) {
    byWordLeftOut = new Map();
    for (const known of index().names) {
      for (const pattern of wordPatterns(known)) {
        const list = byWordLeftOut.get(pattern);
        if (list) list.push(known);
        else byWordLeftOut.set(pattern, [known]);
      }
    }
  }
  const patterns = wordPatterns(name);
  // The last word says what the directive sets (`_version`, `_timeout`, `_header`), so a name keeping it is nearer.
  for (const tier of [patterns.slice(0, -1), patterns.slice(-1)]) {
    const close = new Set<string>();
    for (const pattern of tier) for (const candidate of byWordLeftOut.get(pattern) ?? []) close.add(candidate);
    close.delete(name);
    if (close.size > 0) return close.size === 1 ? [...close][0] : undefined;
  }
  return undefined;
}
