// The regex captures a place can read: `$1`.. and named captures (`(?<name>...)`) of the regexes around it — a regex
// `location`, an `if` with `~`/`~*`, a regex `server_name` — for completing and explaining `$1` and `$name`.
//
//   regexCaptures(pattern)        { count, names } of a PCRE pattern (one linear scan)
//   capturesAround(blocks)        the captures of the enclosing blocks, innermost first
import type { Directive } from '../model/types.js';

export interface Captures {
  /** Numbered groups, named ones included (PCRE numbers both). */
  count: number;
  names: string[];
}

function readName(pattern: string, from: number, close: string): { name: string; end: number } | undefined {
  const end = pattern.indexOf(close, from);
  if (end === -1) return undefined;
  const name = pattern.slice(from, end);
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? { name, end } : undefined;
}

/** Counts the capturing groups of a PCRE pattern, skipping escapes, character classes and `(?...)` non-captures. */
export function regexCaptures(pattern: string): Captures {
  const captures: Captures = { count: 0, names: [] };
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
      // `[]...]` and `[^]...]`: a `]` first in the class is a literal.
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (ch === '(') {
      if (pattern[i + 1] !== '?') {
        captures.count++;
        continue;
      }
      const after = pattern.slice(i + 2, i + 4);
      const named =
        after.startsWith('P<') ? readName(pattern, i + 4, '>')
        : after.startsWith('<') && after !== '<=' && after !== '<!' ? readName(pattern, i + 3, '>')
        : after.startsWith("'") ? readName(pattern, i + 3, "'")
        : undefined;
      if (named) {
        captures.count++;
        captures.names.push(named.name);
      }
    }
  }
  return captures;
}

export interface CaptureSource {
  /** The block or directive whose regex it is. */
  directive: Directive;
  captures: Captures;
}

function unquote(text: string): string {
  const first = text[0];
  return (first === '"' || first === "'") && text.endsWith(first) && text.length >= 2 ? text.slice(1, -1) : text;
}

/** The regex of `if ($x ~ regex)` / `~*` (not `!~`, which captures nothing), from the condition text. */
function conditionRegex(condition: string): string | undefined {
  const inner = condition.trim().replace(/^\(/, '').replace(/\)$/, '').trim();
  const words = inner.split(/\s+/);
  const operator = words[1];
  if (operator !== '~' && operator !== '~*') return undefined;
  const start = inner.indexOf(operator, words[0]!.length) + operator.length;
  return unquote(inner.slice(start).trim());
}

function regexOf(directive: Directive): string | undefined {
  if (directive.name === 'location') {
    const modifier = directive.args[0]?.value;
    if ((modifier === '~' || modifier === '~*') && directive.args[1]) return directive.args[1].value;
    return undefined;
  }
  if (directive.name === 'if' && directive.condition) return conditionRegex(directive.condition);
  return undefined;
}

/** Regex `server_name ~^(?<sub>.+)\.example\.com$` of a server: its named captures are variables in the server. */
function serverNameRegexes(server: Directive): { directive: Directive; pattern: string }[] {
  const names = server.children.filter((child) => child.name === 'server_name');
  return names.flatMap((directive) =>
    directive.args.filter((arg) => arg.value.startsWith('~')).map((arg) => ({ directive, pattern: arg.value.slice(1) })),
  );
}

/** Captures of the enclosing blocks (outermost first in `blocks`), returned innermost first. */
export function capturesAround(blocks: readonly Directive[]): CaptureSource[] {
  const sources: CaptureSource[] = [];
  for (const block of blocks) {
    const regex = regexOf(block);
    if (regex !== undefined) sources.push({ directive: block, captures: regexCaptures(regex) });
    if (block.name === 'server') {
      for (const { directive, pattern } of serverNameRegexes(block)) {
        const captures = regexCaptures(pattern);
        // Numbered captures of server_name do not last into the request; only the named ones are variables.
        if (captures.names.length > 0) sources.push({ directive, captures: { count: 0, names: captures.names } });
      }
    }
  }
  return sources.reverse();
}
