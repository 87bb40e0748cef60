// The quote character a file uses, so inserted quotes look like the file's own (`''` in a file that writes single
// quotes). nginx treats both alike; Go templates leave either alone outside `{{ }}`.
//
//   quoteMajority(file)              the quote most (non-templated) arguments use; undefined on a tie or none
//   preferredQuote(files, tieBreak)  the first file's majority, else the next file's, else tieBreak
//   emptyString(file)                `""` or `''` (double quotes unless the file prefers single)
import type { ConfigFile, Directive } from '../model/types.js';

type Quote = '"' | "'";

function countQuotes(directives: readonly Directive[], counts: { double: number; single: number }): void {
  for (const directive of directives) {
    for (const argument of directive.args) {
      if (argument.templated) continue;
      if (argument.quoted === '"') counts.double++;
      else if (argument.quoted === "'") counts.single++;
    }
    countQuotes(directive.children, counts);
  }
}

// Files are immutable once built, and every fix in a file asks again: count each file once.
const majorities = new WeakMap<ConfigFile, Quote | undefined>();

export function quoteMajority(file: ConfigFile): Quote | undefined {
  if (majorities.has(file)) return majorities.get(file);
  const counts = { double: 0, single: 0 };
  countQuotes(file.directives, counts);
  const majority = counts.double === counts.single ? undefined : counts.single > counts.double ? "'" : '"';
  majorities.set(file, majority);
  return majority;
}

export function preferredQuote(files: readonly ConfigFile[], tieBreak: Quote): Quote {
  for (const file of files) {
    const majority = quoteMajority(file);
    if (majority) return majority;
  }
  return tieBreak;
}

export function emptyString(file: ConfigFile): string {
  const quote = preferredQuote([file], '"');
  return quote + quote;
}
