// Unified diffs (what `diff -u` and `git diff` print) for --fix-dry-run, so the output reads like any patch and can be
// applied with `git apply` or `patch -p1`. Lines are compared with their line breaks, so a `\r\n` file diffs as its
// bytes are, and a missing final newline is marked as diff marks it. File names in the `---`/`+++` header are quoted
// as git quotes them (quotePatchName): a tab, a newline or a terminal escape in a name can neither misname the file
// nor forge a header line nor reach the terminal.

export const DEFAULT_CONTEXT_LINES = 3;

/**
 * Beyond this many differing lines the shortest edit script is not searched for (the search keeps O(D²) state): the
 * changed region is shown as one block removed and one added. Still a correct patch, just not a minimal one; fixes
 * change a few lines, so real runs never get here.
 */
const MAX_EDIT_DISTANCE = 1000;

type Op = { kind: 'equal' | 'delete' | 'insert'; line: string };

/** Lines with their terminators; no empty last entry for a text ending in a newline. */
function splitKeepingBreaks(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

/** Myers' O(ND) shortest edit script from a to b; undefined past MAX_EDIT_DISTANCE. */
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v);
    v = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d, k);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], offset: number, d: number, k: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (; d > 0; d--) {
    const v = trace[d]!;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[offset + previousK]!;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      ops.push({ kind: 'equal', line: a[x]! });
    }
    if (down) ops.push({ kind: 'insert', line: b[--y]! });
    else ops.push({ kind: 'delete', line: a[--x]! });
    k = previousK;
  }
  while (x > 0) {
    y--;
    ops.push({ kind: 'equal', line: a[--x]! });
  }
  return ops.reverse();
}

export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  const middle = myers(middleA, middleB) ?? [
    ...middleA.map((line): Op => ({ kind: 'delete', line })),
    ...middleB.map((line): Op => ({ kind: 'insert', line })),
  ];
  const equal = (line: string): Op => ({ kind: 'equal', line });
  return [...a.slice(0, start).map(equal), ...middle, ...a.slice(endA).map(equal)];
}

function printLine(prefix: string, line: string): string {
  if (line.endsWith('\n')) return `${prefix}${line}`;
  return `${prefix}${line}\n\\ No newline at end of file\n`;
}

/** `start,count` as diff writes it: a hunk side with no lines names the line before it. */
function range(start: number, count: number): string {
  const shown = count === 0 ? start : start + 1;
  return count === 1 ? `${shown}` : `${shown},${count}`;
}

const C_ESCAPES: Readonly<Record<number, string>> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 34: '"', 92: '\\' };

/**
 * `name` as git writes it in a patch (quote_c_style, with core.quotePath's default): as it is when it holds only
 * printable ASCII other than `"` and `\`; otherwise in double quotes, with C escapes (`\t`, `\n`, `\"`, `\\`...)
 * and every other control byte or byte of a non-ASCII character (UTF-8) as three octal digits. `git apply` and GNU
 * `patch` read the quoted form back to the same bytes.
 */
export function quotePatchName(name: string): string {
  const bytes = new TextEncoder().encode(name);
  if (bytes.every((byte) => byte >= 0x20 && byte < 0x7f && byte !== 34 && byte !== 92)) return name;
  let out = '"';
  for (const byte of bytes) {
    const escape = C_ESCAPES[byte];
    if (escape !== undefined) out += `\\${escape}`;
    else if (byte < 0x20 || byte >= 0x7f) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out}"`;
}

/** Empty when the texts are equal. `oldName`/`newName` name the files in the `---`/`+++` header (quoted if need be). */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string, context = DEFAULT_CONTEXT_LINES): string {
  if (oldText === newText) return '';
  const ops = diffLines(splitKeepingBreaks(oldText), splitKeepingBreaks(newText));
  const changed = ops.flatMap((op, index) => (op.kind === 'equal' ? [] : [index]));
  let out = `--- ${quotePatchName(oldName)}\n+++ ${quotePatchName(newName)}\n`;
  // Hunks: runs of changes closer than 2 * context lines share one hunk.
  let first = 0;
  while (first < changed.length) {
    let last = first;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * context) last++;
    out += hunk(ops, Math.max(0, changed[first]! - context), Math.min(ops.length, changed[last]! + context + 1));
    first = last + 1;
  }
  return out;
}

function hunk(ops: readonly Op[], from: number, to: number): string {
  let oldStart = 0;
  let newStart = 0;
  for (const op of ops.slice(0, from)) {
    if (op.kind !== 'insert') oldStart++;
    if (op.kind !== 'delete') newStart++;
  }
  const slice = ops.slice(from, to);
  const oldCount = slice.filter((op) => op.kind !== 'insert').length;
  const newCount = slice.filter((op) => op.kind !== 'delete').length;
  const prefix = { equal: ' ', delete: '-', insert: '+' } as const;
  const body = slice.map((op) => printLine(prefix[op.kind], op.line)).join('');
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${body}`;
}
