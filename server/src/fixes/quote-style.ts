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

export function quoteMajority(file: ConfigFile): Quote | undefined {
  const counts = { double: 0, single: 0 };
  countQuotes(file.directives, counts);
  if (counts.double === counts.single) return undefined;
  return counts.single > counts.double ? "'" : '"';
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
