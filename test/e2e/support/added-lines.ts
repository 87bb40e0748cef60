// What a fix added to a file, for tests that apply one quick fix in an editor: every original line must survive in
// order (a quick fix here only inserts), and the rest are the added lines with their 0-based index in the result.
export interface AddedLine {
  index: number;
  text: string;
}

export function addedLines(original: string, fixed: string): AddedLine[] {
  const before = original.split('\n');
  const after = fixed.split('\n');
  const added: AddedLine[] = [];
  let next = 0;
  after.forEach((text, index) => {
    if (next < before.length && text === before[next]) next++;
    else added.push({ index, text });
  });
  if (next !== before.length) throw new Error(`original line ${next + 1} is gone: ${JSON.stringify(before[next])}`);
  return added;
}

/** The 0-based index of the `}` closing the block opened on line `opening` (indentation-based: fixtures are tidy). */
export function blockEnd(lines: readonly string[], opening: number): number {
  const indent = /^\s*/.exec(lines[opening] ?? '')?.[0] ?? '';
  return lines.findIndex((line, index) => index > opening && line === `${indent}}`);
}
