// The order nginx sorts include glob matches in, and the runs of names sharing a prefix in a list sorted so.

/**
 * nginx sorts glob(3) results with the C locale: by bytes, not by UTF-16 code units or locale rules. UTF-8's byte
 * order is its code points' order, so this compares code points (a lone surrogate as U+FFFD, as the UTF-8 encoder
 * writes it) without encoding: the same answer as comparing the UTF-8 bytes, and no Buffer (the virtual hosts run
 * in a browser too).
 */
export function compareBytes(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = utf8CodePoint(a, i);
    const y = utf8CodePoint(b, j);
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

/** The code point UTF-8 encodes at `index`: a surrogate left alone becomes U+FFFD. */
function utf8CodePoint(text: string, index: number): number {
  const code = text.codePointAt(index)!;
  return code >= 0xd800 && code <= 0xdfff ? 0xfffd : code;
}

/**
 * The index of the first of `sorted` (in compareBytes order) not before `prefix`: the names starting with `prefix`
 * run from there, one after another, as long as they start with it.
 */
export function lowerBound<T>(sorted: readonly T[], prefix: string, name: (item: T) => string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareBytes(name(sorted[middle]!), prefix) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The items of `sorted` whose name starts with `prefix`, in order. */
export function withPrefix<T>(sorted: readonly T[], prefix: string, name: (item: T) => string): T[] {
  const found: T[] = [];
  for (let i = lowerBound(sorted, prefix, name); i < sorted.length && name(sorted[i]!).startsWith(prefix); i++) {
    found.push(sorted[i]!);
  }
  return found;
}
