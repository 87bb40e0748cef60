// A location inside another, as ngx_http_core_location checks it when it reads the inner one: nothing may be nested
// in an exact (`=`) or a named (`@`) location, a named location only stands at server level, and a prefix location
// must start with its parent's name (a regex parent's is its pattern as written). A `}` deleted from a location makes
// the next one its child, and nginx stops there: `location "/media" is outside location "/nginx_status"`.
import type { Directive } from '../model/types.js';
import { shortened } from '../util/shortened.js';

export interface LocationNestingProblem {
  kind: 'location-nesting';
  reason: 'outside' | 'inside-exact' | 'inside-named' | 'named-nested';
  /** The location's name and its parent's, as nginx prints them (modifier left out). */
  name: string;
  parentName: string;
}

interface LocationName {
  name: string;
  exact: boolean;
  regex: boolean;
  named: boolean;
}

/** The name and modifier as ngx_http_core_location reads them; undefined for what it refuses or a template renders. */
function locationName(directive: Directive): LocationName | undefined {
  const args = directive.args;
  if (args.some((arg) => arg.templated) || args.length === 0 || args.length > 2) return undefined;
  if (args.length === 2) {
    const modifier = args[0]!.value;
    const name = args[1]!.value;
    if (!['=', '^~', '~', '~*'].includes(modifier)) return undefined;
    return { name, exact: modifier === '=', regex: modifier.startsWith('~'), named: false };
  }
  const value = args[0]!.value;
  if (value.startsWith('=')) return { name: value.slice(1), exact: true, regex: false, named: false };
  if (value.startsWith('~')) return { name: value.slice(value.startsWith('~*') ? 2 : 1), exact: false, regex: true, named: false };
  return { name: value, exact: false, regex: false, named: value.startsWith('@') };
}

/** What nginx refuses about a location block inside a location block of the same file. */
export function locationNestingProblem(directive: Directive): LocationNestingProblem | undefined {
  const parent = directive.parent;
  if (directive.name !== 'location' || !directive.blockSpan || parent?.name !== 'location') return undefined;
  const inner = locationName(directive);
  const outer = locationName(parent);
  if (!inner || !outer) return undefined;
  const at = (reason: LocationNestingProblem['reason']): LocationNestingProblem => ({ kind: 'location-nesting', reason, name: inner.name, parentName: outer.name });
  if (outer.exact) return at('inside-exact');
  if (outer.named) return at('inside-named');
  if (inner.named) return at('named-nested');
  // ngx_filename_cmp over the parent's length, both NUL-terminated: a shorter name differs too. Case-sensitive on
  // the filesystems Debian's nginx is built for.
  if (!inner.regex && !inner.name.startsWith(outer.name)) return at('outside');
  return undefined;
}

/** The `directive` rule's headline: nginx's words, then what to do. */
export function nestingHeadline(problem: LocationNestingProblem): string {
  const inner = shortened(problem.name, 20);
  const outer = shortened(problem.parentName, 20);
  switch (problem.reason) {
    case 'outside':
      return `location "${inner}" is outside location "${outer}": move it out`;
    case 'inside-exact':
      return `location "${inner}" cannot be inside the exact location "${outer}": move it out`;
    case 'inside-named':
      return `location "${inner}" cannot be inside the named location "${outer}": move it out`;
    case 'named-nested':
      return `named location "${inner}" can be on the server level only: move it out`;
  }
}
