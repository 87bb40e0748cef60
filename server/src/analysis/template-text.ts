// Text that may hold template actions: Go's (`{{ $.APP }}`), as in Dokku sigils, or Jinja's (`{{ item.name }}`,
// `{% if x %}`, `{# note #}`): where the actions are, and a normal form so `{{$.APP}}` and `{{ $.APP }}` name the same
// thing; and envsubst's `${NAME}` placeholders (Docker `*.template` files), where pass targets are read. Template text
// is never rendered or guessed.

/** What closes each kind of action. */
const CLOSERS: Readonly<Record<string, string>> = { '{': '}', '%': '}', '#': '}' };

/** [start, end) offsets of each `{{ ... }}` (or Jinja `{% ... %}`, `{# ... #}`) action; an unclosed one runs to the end. */
export function actionRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  // A scan from one `{` to the next: linear, where a regexp rebuilt per call would be a second matcher to review.
  for (let index = text.indexOf('{'); index !== -1; ) {
    const kind = text[index + 1];
    if (kind === '{' || kind === '%' || kind === '#') {
      const end = actionEnd(text, index + 2, kind);
      ranges.push([index, end]);
      index = text.indexOf('{', end);
    } else {
      index = text.indexOf('{', index + 1);
    }
  }
  return ranges;
}

/**
 * The offset just past the closing delimiter of an action whose body starts at `from`: `}}` for `{{`, `%}` for `{%`,
 * `#}` for `{#`; a delimiter inside a literal is skipped (Go's three quotes; Jinja has only the first two).
 */
function actionEnd(text: string, from: number, kind: string): number {
  const close = kind === '{' ? '}' : kind;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (kind !== '#' && (ch === '"' || ch === "'" || (ch === '`' && kind === '{'))) i = literalEnd(text, i);
    else if (ch === close && text[i + 1] === CLOSERS[kind]) return i + 2;
  }
  return text.length;
}

/** The offset of the quote closing the Go literal opened at `start` (raw `...` literals have no escapes). */
function literalEnd(text: string, start: number): number {
  const quote = text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\' && quote !== '`') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

export function hasTemplateAction(text: string): boolean {
  // Every action starts with `{`: the common text without one is answered without a scan.
  return text.includes('{') && actionRanges(text).length > 0;
}

/** The first index >= `from` of a character in `chars` that is not inside a template action; -1 when none. */
export function indexOutsideActions(text: string, chars: string, from = 0): number {
  // Pass targets, hosts and values are read with this a few times each: most hold no action, and are searched
  // directly; the others step through their (ordered, disjoint) actions once.
  const ranges = text.includes('{') ? actionRanges(text) : NO_RANGES;
  let next = 0;
  for (let i = from; i < text.length; i++) {
    while (next < ranges.length && ranges[next]![1] <= i) next++;
    const range = ranges[next];
    if (range && range[0] <= i) i = range[1] - 1;
    else if (chars.includes(text[i]!)) return i;
  }
  return -1;
}

const NO_RANGES: ReadonlyArray<readonly [number, number]> = [];

/** The last index of a character in `chars` outside template actions; -1 when none. */
export function lastIndexOutsideActions(text: string, chars: string): number {
  let last = -1;
  for (let i = indexOutsideActions(text, chars); i !== -1; i = indexOutsideActions(text, chars, i + 1)) last = i;
  return last;
}

/** True when an nginx `$variable` appears outside the template actions (`$` inside `{{ }}` is Go's). */
export function hasNginxVariable(text: string): boolean {
  return indexOutsideActions(text, '$') !== -1;
}

/** An action's body with trim markers dropped and white space outside literals collapsed to single spaces. */
function normaliseAction(body: string, open: string, close: string): string {
  // Go wants a space after `{{-`; Jinja's `{%-` and `{{-` need none (and `+` keeps white space: no trimming).
  const inner = open === '{{' ? body.replace(/^-(?=\s)/, '').replace(/(?<=\s)-$/, '') : body.replace(/^[-+]/, '').replace(/[-+]$/, '');
  let out = '';
  let spaced = false;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    const space = /\s/.test(ch);
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = literalEnd(inner, i);
      out += inner.slice(i, end + 1);
      i = end;
    } else if (!space || !spaced) {
      out += space ? ' ' : ch;
    }
    spaced = space;
  }
  return `${open} ${out.trim()} ${close}`;
}

/**
 * Rewrites each action as `{{ body }}` with its white space collapsed, so differently spaced spellings of the same
 * template compare equal. `caseFold` lower-cases the text outside the actions (nginx compares upstream names
 * case-insensitively) while leaving the actions, which are case-sensitive Go, alone.
 */
export function normaliseTemplateText(text: string, caseFold = false): string {
  if (!text.includes('{')) return caseFold ? text.toLowerCase() : text;
  let out = '';
  let cursor = 0;
  for (const [start, end] of actionRanges(text)) {
    const literal = text.slice(cursor, start);
    out += caseFold ? literal.toLowerCase() : literal;
    const open = text.slice(start, start + 2);
    const close = (open === '{{' ? '}' : open[1]!) + '}';
    const closed = text.endsWith(close, end) && end - start >= 4;
    out += closed ? normaliseAction(text.slice(start + 2, end - 2), open, close) : text.slice(start, end);
    cursor = end;
  }
  const rest = text.slice(cursor);
  return out + (caseFold ? rest.toLowerCase() : rest);
}

/**
 * `${NAME}` with NAME in upper case (letters, digits, `_`): an envsubst placeholder, as the official Docker image fills
 * in `/etc/nginx/templates/*.template` at container start (and entrypoints run envsubst on other files). Template
 * text, not an nginx variable: nginx's own variables are lower case, and the braced upper-case spelling is the
 * environment's. Linear: one match per placeholder, no backtracking between the fixed delimiters.
 */
const ENVSUBST_PLACEHOLDER = /\$\{[A-Z_][A-Z0-9_]*\}/g;

/** [start, end) offsets of each envsubst placeholder (`${UPSTREAM_SCHEME}`). */
export function placeholderRanges(text: string): Array<[number, number]> {
  if (!text.includes('${')) return [];
  return [...text.matchAll(ENVSUBST_PLACEHOLDER)].map((match) => [match.index, match.index + match[0].length]);
}

export function hasPlaceholder(text: string): boolean {
  return placeholderRanges(text).length > 0;
}

/** The text with each placeholder replaced by as many `X`: offsets kept, no `$` left to read as an nginx variable. */
export function maskPlaceholders(text: string): string {
  if (!text.includes('${')) return text;
  let out = '';
  let cursor = 0;
  for (const [start, end] of placeholderRanges(text)) {
    out += text.slice(cursor, start) + 'X'.repeat(end - start);
    cursor = end;
  }
  return out + text.slice(cursor);
}
