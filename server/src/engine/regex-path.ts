// A request path for a regex location (`location ~ ^/api/(.*)$`, `location ~* \.php$`), for `prove`. Only a small,
// safe subset of PCRE is read: literals, `^` and `$`, `.`, escapes of punctuation and `\d`/`\w`, character classes,
// groups (`(...)`, `(?:...)`, `(?<name>...)`) whose first alternative is taken, the quantifiers `*`, `+`, `?`, `{n}`,
// `{n,m}`, and a leading `(?i)`. In that subset a JavaScript RegExp means what PCRE means, so the path generated is
// then checked against the pattern itself. Anything else (lookarounds, back-references, `\s`...) gives a reason.
// Whether nginx routes the path to this location (another location may win) is seen only when it runs: prove checks
// that the upstream saw the requests.

const MAX_PATTERN = 200;
const MAX_PATH = 200;
const MAX_REPEATS = 3;
/** Characters a request line may carry as they are and that nginx's URI normalisation leaves alone. */
const SENDABLE = /^\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/;

/** What `.` stands for until the end: `/` when it opens an anchored path (`^(.+\\.php)`), else `a`. */
const DOT = '\u0000';

type Result = { path: string } | { skipped: string };

class Generator {
  at = 0;
  private repeats = 0;
  constructor(private readonly source: string) {}

  private fail(what: string): never {
    throw new RegexNotInSubset(what);
  }

  /** A sequence of alternatives up to `)` or the end: the text of the first one. */
  alternatives(): string {
    const first = this.sequence();
    while (this.source[this.at] === '|') {
      this.at++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let out = '';
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const char = this.source[this.at]!;
      if (char === '^' || char === '$') {
        // An anchor inside (`\.php(/|$)`, `^/a$|^/b$`) adds no text; the check against the pattern says if it holds.
        this.at++;
        continue;
      }
      const start = this.at;
      const atom = this.atom();
      // A group that repeats something inside it: the check could backtrack without bound if that group repeats too.
      const repeatsInside = char === '(' && /[*+{]/.test(this.source.slice(start, this.at));
      out += this.quantified(atom, repeatsInside);
    }
    return out;
  }

  private atom(): string {
    const char = this.source[this.at++]!;
    if (char === '.') return DOT;
    if (char === '\\') return this.escape();
    if (char === '[') return this.characterClass();
    if (char === '(') {
      if (this.source.startsWith('?:', this.at)) this.at += 2;
      else if (this.source[this.at] === '?') {
        const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(this.source.slice(this.at, this.at + 40));
        if (!named) this.fail('group construct (?...)');
        this.at += named[0].length;
      }
      const text = this.alternatives();
      if (this.source[this.at] !== ')') this.fail('unclosed group');
      this.at++;
      return text;
    }
    if ('*+?{)|'.includes(char)) this.fail(`quantifier ${char} without an atom`);
    return char;
  }

  private escape(): string {
    const char = this.source[this.at++];
    if (char === undefined) this.fail('trailing backslash');
    if (char === 'd') return '1';
    if (char === 'w') return 'a';
    if (/[.\/\-_~!$&'()*+,;=:@?[\]{}|^\\]/.test(char)) return char;
    return this.fail(`escape \\${char}`);
  }

  /** `[...]`: its first member that can be sent; `[^...]`: the first of `a`, `0`, `-` it leaves out. */
  private characterClass(): string {
    const end = this.source.indexOf(']', this.at + 1);
    if (end === -1) this.fail('unclosed character class');
    const body = this.source.slice(this.at, end);
    this.at = end + 1;
    if (body.includes('\\') || body.includes('[')) this.fail('escape or [ inside a character class');
    if (body.startsWith('^')) {
      let excluded: RegExp;
      try {
        excluded = new RegExp(`[${body.slice(1)}]`);
      } catch {
        return this.fail('character class not understood');
      }
      const pick = ['a', '0', '-', '_'].find((candidate) => !excluded.test(candidate));
      return pick ?? this.fail('negated character class that leaves no plain character');
    }
    const first = body[0]!;
    return first;
  }

  private quantified(atom: string, repeatsInside: boolean): string {
    const char = this.source[this.at];
    let times = 1;
    // `*`, `+`, `{n,m}`: a repeat whose length varies, a factor in what the check may try on a path that fails.
    let varies = true;
    if (char === '*' || char === '?') {
      times = 0;
      varies = char === '*';
      this.at++;
    } else if (char === '+') this.at++;
    else if (char === '{') {
      const bounds = /^\{(\d{1,2})(,\d{0,2})?\}/.exec(this.source.slice(this.at, this.at + 8));
      if (!bounds) this.fail('quantifier {');
      times = Number(bounds[1]);
      varies = bounds[2] !== undefined;
      this.at += bounds[0].length;
    } else return atom;
    const next = this.source[this.at];
    if (next === '?' || next === '+') this.at++;
    if (repeatsInside && char !== '?') this.fail('quantified group');
    if (varies && ++this.repeats > MAX_REPEATS) this.fail('more than three repeats');
    if ('*+?{'.includes(this.source[this.at] ?? '#')) this.fail('nested quantifier');
    return atom.repeat(times);
  }
}

class RegexNotInSubset extends Error {}

/** A path a `location ~` (or `~*`, `caseless`) with `pattern` matches, or why none is generated. */
export function regexRequestPath(pattern: string, caseless: boolean): Result {
  const skip = (why: string): Result => ({ skipped: `regex location: ${why}, no matching path is generated` });
  if (pattern.length > MAX_PATTERN) return skip('pattern too long');
  let source = pattern;
  let ignoreCase = caseless;
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    ignoreCase = true;
  }
  const anchoredStart = source.startsWith('^');
  const anchoredEnd = source.endsWith('$') && !source.endsWith('\\$');
  const body = source.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined);
  let text: string;
  try {
    const generator = new Generator(body);
    text = generator.alternatives();
    if (generator.at !== body.length) return skip('unbalanced )');
  } catch (error) {
    if (error instanceof RegexNotInSubset) return skip(error.message);
    throw error;
  }
  const opened = anchoredStart && text.startsWith(DOT) ? `/${text.slice(1)}` : text;
  const filled = opened.replaceAll(DOT, 'a');
  const path = anchoredStart || filled.startsWith('/') ? filled : `/prove${filled}`;
  if (path.length > MAX_PATH) return skip('the path it matches is too long');
  if (!SENDABLE.test(path) || /\/\/|\/\.\.?(\/|$)/.test(path)) return skip(`the path it matches (${path}) cannot be sent as it is`);
  // The subset means the same in JavaScript as in PCRE: the check is the pattern's own verdict.
  let matches: boolean;
  try {
    matches = new RegExp(source, ignoreCase ? 'i' : '').test(path);
  } catch {
    return skip('pattern not understood');
  }
  return matches ? { path } : skip(`the generated path ${path} does not match`);
}
