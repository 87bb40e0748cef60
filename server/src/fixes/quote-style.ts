// The quote character a file uses, so an inserted `""` looks like the file's own (`''` in a file that writes
// single quotes). nginx treats both alike; Go templates leave either alone outside `{{ }}`.
//
//   preferredQuote(file)    '"' unless the file quotes more arguments with `'`
//   emptyString(file)       `""` or `''`
import type { ConfigFile, Directive } from '../model/types.js';

function countQuotes(directives: readonly Directive[], counts: { double: number; single: number }): void {
  for (const directive of directives) {
    for (const argument of directive.args) {
      if (argument.quoted === '"') counts.double++;
      else if (argument.quoted === "'") counts.single++;
    }
    countQuotes(directive.children, counts);
  }
}

export function preferredQuote(file: ConfigFile): '"' | "'" {
  const counts = { double: 0, single: 0 };
  countQuotes(file.directives, counts);
  return counts.single > counts.double ? "'" : '"';
}

export function emptyString(file: ConfigFile): string {
  const quote = preferredQuote(file);
  return quote + quote;
}
