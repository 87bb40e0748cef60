// Text that may hold Go-template actions (`{{ $.APP }}`), as in Dokku sigils: where the actions are, and a normal
// form so `{{$.APP}}` and `{{ $.APP }}` name the same thing. Template text is never rendered or guessed.

/** [start, end) offsets of each `{{ ... }}` action; an unclosed action runs to the end of the text. */
export function actionRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let index = text.indexOf('{{');
  while (index !== -1) {
    const end = actionEnd(text, index + 2);
    ranges.push([index, end]);
    index = text.indexOf('{{', end);
  }
  return ranges;
}

/** The offset just past the `}}` closing an action whose body starts at `from`; `}}` inside Go literals is skipped. */
function actionEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === '`') i = literalEnd(text, i);
    else if (ch === '}' && text[i + 1] === '}') return i + 2;
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
  return actionRanges(text).length > 0;
}

/** The first index >= `from` of a character in `chars` that is not inside a template action; -1 when none. */
export function indexOutsideActions(text: string, chars: string, from = 0): number {
  const ranges = actionRanges(text);
  for (let i = from; i < text.length; i++) {
    const range = ranges.find(([start, end]) => i >= start && i < end);
    if (range) i = range[1] - 1;
    else if (chars.includes(text[i]!)) return i;
  }
  return -1;
}

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

/** An action's body with trim markers dropped and white space outside Go literals collapsed to single spaces. */
function normaliseAction(body: string): string {
  const inner = body.replace(/^-(?=\s)/, '').replace(/(?<=\s)-$/, '');
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
  return `{{ ${out.trim()} }}`;
}

/**
 * Rewrites each action as `{{ body }}` with its white space collapsed, so differently spaced spellings of the same
 * template compare equal. `caseFold` lower-cases the text outside the actions (nginx compares upstream names
 * case-insensitively) while leaving the actions, which are case-sensitive Go, alone.
 */
export function normaliseTemplateText(text: string, caseFold = false): string {
  let out = '';
  let cursor = 0;
  for (const [start, end] of actionRanges(text)) {
    const literal = text.slice(cursor, start);
    out += caseFold ? literal.toLowerCase() : literal;
    const closed = text.endsWith('}}', end) && end - start >= 4;
    out += closed ? normaliseAction(text.slice(start + 2, end - 2)) : text.slice(start, end);
    cursor = end;
  }
  const rest = text.slice(cursor);
  return out + (caseFold ? rest.toLowerCase() : rest);
}
