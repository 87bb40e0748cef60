// A line diff for test failure messages: "the fixed text differs from the golden" must show where, byte for byte.
// Invisible differences are made visible: a line's `\r` shows as `␍`, a byte order mark as `<BOM>`, a missing final
// newline as `\ No newline at end of file`. Fixture files are small, so a plain LCS table is fine.

function visible(line: string): string {
  return line.replace(/^\uFEFF/, '<BOM>').replace(/\r$/, '␍');
}

/** Lines without their `\n` (a `\r` stays on its line); a text ending in `\n` has no empty last line. */
function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  const finalNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (finalNewline || text === '') lines.pop();
  return { lines, finalNewline };
}

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', line: a[i++]!, a: i, b: ++j });
    // Deletions first, as diff prints them, when both directions keep the common subsequence as long.
    else if (i < n && (j === m || table[i + 1]![j]! >= table[i]![j + 1]!)) ops.push({ kind: '-', line: a[i++]!, a: i, b: j });
    else ops.push({ kind: '+', line: b[j++]!, a: i, b: j });
  }
  return ops;
}

/**
 * `diff -u`-like text from `expected` to `actual` (`-` lines are the expected text's, `+` lines the actual's), with
 * `context` unchanged lines around each change; '' when the texts are equal.
 */
export function unifiedDiff(expected: string, actual: string, labels = { expected: 'expected', actual: 'actual' }, context = 3): string {
  if (expected === actual) return '';
  const a = splitLines(expected);
  const b = splitLines(actual);
  const ops = lcsOps(a.lines, b.lines);
  const changed = ops.map((op) => op.kind !== ' ');
  const shown = ops.map((_, index) => {
    for (let k = Math.max(0, index - context); k <= Math.min(ops.length - 1, index + context); k++) if (changed[k]) return true;
    return false;
  });
  const out = [`--- ${labels.expected}`, `+++ ${labels.actual}`];
  ops.forEach((op, index) => {
    if (!shown[index]) return;
    if (index > 0 && !shown[index - 1]) out.push(`@@ line ${op.kind === '+' ? op.b : op.a} @@`);
    else if (index === 0) out.push(`@@ line 1 @@`);
    out.push(`${op.kind}${visible(op.line)}`);
  });
  if (a.finalNewline !== b.finalNewline) {
    out.push(`(expected ${a.finalNewline ? 'ends' : 'does not end'} with a newline; actual ${b.finalNewline ? 'does' : 'does not'})`);
  }
  if (out.length === 2) out.push('(the texts differ only in ways a line diff cannot show)');
  return out.join('\n');
}
