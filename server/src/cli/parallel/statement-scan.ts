// The statements that link files, found in raw text for predict-groups.ts: `include X;`, `upstream NAME {` and
// `*_pass TARGET`. A cheap scan, not a parse (comments and template guards are not understood): a wrong guess only
// costs time there.
//
// Hand-written rather than a RegExp: the natural one for an argument, `(?:\{\{.*?\}\}|[^\s;{}])+`, can split a run of
// `{{}}`s into actions in exponentially many ways, and tries them all when no `;` follows (`include {{}}{{}}… x`).
// Here an argument is read once, greedily, taking each `{{` to the first `}}` on its line, and every position's
// outcome is remembered, so a text is scanned in O(n log n) however its keywords overlap.

export interface Statements {
  includes: string[];
  upstreams: string[];
  passes: string[];
}

export function statementsOf(text: string): Statements {
  const scanner = new ArgumentScanner(text);
  return {
    includes: scanner.argumentsAfter('include', { wordStart: true, terminator: ';' }),
    upstreams: scanner.argumentsAfter('upstream', { wordStart: true, terminator: '{' }),
    // `_pass` also matches other modules' passes, which can only add links.
    passes: scanner.argumentsAfter('_pass', { wordStart: false, terminator: undefined }),
  };
}

interface Keyword {
  /** The keyword must not continue a word (`\binclude`). */
  wordStart: boolean;
  /** What must follow the argument, after optional white space; undefined: nothing. */
  terminator: ';' | '{' | undefined;
}

const isLineTerminator = (code: number) => code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
/** `\w`: what `\binclude` must not follow. */
const isWordChar = (char: string | undefined) =>
  char !== undefined && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9') || char === '_');
/** JavaScript's `\s` (undefined, past the end, is not). Compared by code: this runs on every character of a text. */
function isSpace(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}
const isBareChar = (char: string | undefined) => char !== undefined && !isSpace(char) && char !== ';' && char !== '{' && char !== '}';

/** The first element of the sorted `positions` that is >= `from`, or -1. */
function firstAtOrAfter(positions: readonly number[], from: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return low < positions.length ? positions[low]! : -1;
}

class ArgumentScanner {
  /** Where each `}}` and each line terminator is: found once, looked up by binary search. */
  private closes: number[] | undefined;
  private lineEnds: number[] | undefined;
  /** bareEnds[p] - 1: where a bare argument starting at p ends (0: not known yet). */
  private bareEnds: Int32Array | undefined;
  /** spaceEnds[p] - 1: the first position >= p that is not white space (0: not known yet). */
  private spaceEnds: Int32Array | undefined;

  constructor(private readonly text: string) {}

  argumentsAfter(keyword: string, { wordStart, terminator }: Keyword): string[] {
    const found: string[] = [];
    const { text } = this;
    for (let at = text.indexOf(keyword); at !== -1; ) {
      const statement = wordStart && isWordChar(text[at - 1]) ? undefined : this.statementAt(at + keyword.length, terminator);
      if (statement) found.push(statement.argument);
      at = text.indexOf(keyword, statement ? statement.end : at + 1);
    }
    return found;
  }

  /** White space, an argument (quoted, else bare), then the terminator; undefined when that is not what is there. */
  private statementAt(afterKeyword: number, terminator: Keyword['terminator']): { argument: string; end: number } | undefined {
    const { text } = this;
    if (!isSpace(text[afterKeyword])) return undefined;
    const start = this.skipSpaces(afterKeyword);
    const ends = (argumentEnd: number) => {
      if (terminator === undefined) return argumentEnd;
      const at = this.skipSpaces(argumentEnd);
      return text[at] === terminator ? at + 1 : -1;
    };
    const quote = text[start];
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, start + 1);
      const end = close === -1 ? -1 : ends(close + 1);
      if (end !== -1) return { argument: text.slice(start + 1, close), end };
    }
    // A quote that does not close before a terminator is bare text, as nginx's own arguments would not be.
    const bareEnd = this.bareEnd(start);
    if (bareEnd === start) return undefined;
    const end = ends(bareEnd);
    if (end === -1) return undefined;
    const raw = text.slice(start, bareEnd);
    const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.at(-1) === raw[0];
    return { argument: quoted ? raw.slice(1, -1) : raw, end };
  }

  private skipSpaces(from: number): number {
    this.spaceEnds ??= new Int32Array(this.text.length + 1);
    const known = this.spaceEnds[from]!;
    if (known !== 0) return known - 1;
    let at = from;
    while (isSpace(this.text[at])) at++;
    this.spaceEnds[from] = at + 1;
    return at;
  }

  /**
   * The end of the bare argument starting at `start`: characters other than white space, `;`, `{` and `}`, and
   * template actions `{{…}}` (which may hold those), each ending at the first `}}` on its line. Every position
   * passed on the way is remembered, so no position is scanned twice.
   */
  private bareEnd(start: number): number {
    this.bareEnds ??= new Int32Array(this.text.length + 1);
    const passed: number[] = [];
    let at = start;
    for (;;) {
      const known = this.bareEnds[at]!;
      if (known !== 0) {
        at = known - 1;
        break;
      }
      const next = this.step(at);
      if (next === -1) break;
      passed.push(at);
      at = next;
    }
    for (const position of passed) this.bareEnds[position] = at + 1;
    this.bareEnds[start] = at + 1;
    return at;
  }

  /** Past the action or character at `at`, or -1 when the argument ends there. */
  private step(at: number): number {
    const { text } = this;
    if (text[at] === '{' && text[at + 1] === '{') {
      const close = this.actionClose(at + 2);
      return close === -1 ? -1 : close + 2;
    }
    return isBareChar(text[at]) ? at + 1 : -1;
  }

  /** The first `}}` at or after `from` and before the end of its line, or -1. */
  private actionClose(from: number): number {
    if (this.closes === undefined) {
      this.closes = [];
      this.lineEnds = [];
      const { text } = this;
      for (let i = text.indexOf('}}'); i !== -1; i = text.indexOf('}}', i + 1)) this.closes.push(i);
      for (let i = 0; i < text.length; i++) if (isLineTerminator(text.charCodeAt(i))) this.lineEnds.push(i);
    }
    const close = firstAtOrAfter(this.closes, from);
    const lineEnd = firstAtOrAfter(this.lineEnds!, from);
    return close !== -1 && (lineEnd === -1 || close < lineEnd) ? close : -1;
  }
}
